import { COMPANY_ERR } from '@shared/domain/company-sign-on';
import { MSG } from '@shared/messages';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { SignatureDialog, type SignatureSubmit } from '@/components/ui/signature-dialog';
import { REAUTH_MESSAGE } from '@/lib/company-sign-on/pending-sign-on';
import { type SessionUser, signIn } from '@/lib/session/session-store';
import { server } from '@/testing/backend/server';
import { USERS } from '@/testing/mocks/fixtures';
import { fill } from '@/testing/render-app';

/**
 * The signature dialog's proofs besides the password (decisions 322, 368): a fresh sign-in at the company
 * for a person a company identity signs in as, no password field for an account without one, and a
 * passkey prompt the person can cancel. The stage's company sign-on and the browser's popup and WebAuthn
 * prompt are the only stand-ins; the rest is the real dialog over the test backend.
 */

const COMPANY = 'Example Corp';
const lead = USERS.find((u) => u.id === 'u-lead')!;
const pkg = { id: 'pk-1', name: 'Pump 4.2', type: 'DEV_UNSIGNED' as const, resourceName: 'pump' };

/** The stage's company sign-on, as GET /company-sign-on answers; `asked()`: the dialog has read it. */
function stageCompany(enabled: boolean) {
  let asked = false;
  server.use(
    http.get('/dev/company-sign-on', () => {
      asked = true;
      return HttpResponse.json(enabled ? { enabled, companyName: COMPANY } : { enabled });
    }),
  );
  return { asked: () => asked };
}

/** Lets the answers that arrived settle into the dialog (state updates after the fetch resolves). */
const settled = () => act(async () => {});

function open(
  as: Partial<SessionUser>,
  action: 'approve' | 'reject' = 'approve',
  onSubmit: SignatureSubmit = async () => null,
) {
  signIn({ ...lead, ...as } as SessionUser);
  render(
    <AppProvider>
      <SignatureDialog pkg={pkg} action={action} onCancel={vi.fn()} onSubmit={onSubmit} />
    </AppProvider>,
  );
  return screen.getByRole('dialog') as HTMLElement;
}

const companyButton = (dialog: HTMLElement) =>
  within(dialog).queryByRole('button', { name: `Approve: sign in again at ${COMPANY}` });

/** A popup window the dialog opens: where it was sent, and whether it was closed. */
function fakePopup() {
  const popup = { location: { href: 'about:blank' }, closed: false, close: vi.fn() };
  vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
  server.use(
    http.post('/dev/company-sign-on/reauth', () =>
      HttpResponse.json({
        authorizationUrl: 'https://idp.example.com/auth?state=st-1&prompt=login',
        binding: 'b-1',
        expiresAt: new Date(Date.now() + 300_000).toISOString(),
      }),
    ),
  );
  return popup;
}

/** What the portal's callback page in the popup posts to its opener. */
function ticketArrives(data: { reauthTicket?: string; error?: string }) {
  window.dispatchEvent(
    new MessageEvent('message', { origin: window.location.origin, data: { type: REAUTH_MESSAGE, ...data } }),
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the company choice of the signature dialog (decision 368)', () => {
  it('is offered only where the stage has company sign-on and a company identity signs in as the signer', async () => {
    const stage = stageCompany(true);
    const unlinked = open({});
    await within(unlinked).findByLabelText(/^Your password/);
    // the stage's answer has arrived (the dialog read it) and still no company choice for this person
    await waitFor(() => expect(stage.asked()).toBe(true));
    await settled();
    expect(unlinked).toHaveTextContent(/password you sign in with: it confirms/);
    expect(companyButton(unlinked)).toBeNull();
  });

  it('is not offered on a stage without company sign-on, even to a linked person', async () => {
    const stage = stageCompany(false);
    const dialog = open({ companyLinked: true });
    await within(dialog).findByLabelText(/^Your password/);
    await waitFor(() => expect(stage.asked()).toBe(true));
    await settled();
    expect(dialog).toHaveTextContent(/password you sign in with: it confirms/);
    expect(companyButton(dialog)).toBeNull();
  });

  it('sits beside the password for a linked person who has one', async () => {
    stageCompany(true);
    const dialog = open({ companyLinked: true });
    expect(
      await within(dialog).findByRole('button', { name: `Approve: sign in again at ${COMPANY}` }),
    ).toBeEnabled();
    expect(within(dialog).getByLabelText(/^Your password/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Approve' })).toBeDisabled();
  });

  it('replaces the password for a person without a portal password: no field the server would refuse', async () => {
    stageCompany(true);
    const dialog = open({ companyLinked: true, passwordless: true });
    await within(dialog).findByRole('button', { name: `Approve: sign in again at ${COMPANY}` });
    expect(within(dialog).queryByLabelText(/^Your password/)).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: MSG.cancel })).toBeEnabled();
  });

  it('submits the ticket the company window hands back as reauthTicket, with the reason', async () => {
    stageCompany(true);
    const popup = fakePopup();
    const onSubmit = vi.fn<SignatureSubmit>(async () => null);
    const dialog = open({ companyLinked: true, passwordless: true }, 'reject', onSubmit);
    const go = await within(dialog).findByRole('button', { name: `Reject: sign in again at ${COMPANY}` });
    // a rejection's reason first: the company window is not opened without it
    expect(go).toBeDisabled();
    fill(within(dialog).getByLabelText(/Reason for the rejection/), ' wrong range ');
    expect(go).toBeEnabled();
    fireEvent.click(go);
    await waitFor(() => expect(popup.location.href).toContain('https://idp.example.com/auth'));
    expect(window.open).toHaveBeenCalledTimes(1);
    ticketArrives({ reauthTicket: 'ticket-1' });
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ reauthTicket: 'ticket-1' }, 'wrong range'));
  });

  it('keeps a refused ticket in the dialog; a second sign-in there signs', async () => {
    stageCompany(true);
    fakePopup();
    const onSubmit = vi
      .fn<SignatureSubmit>()
      .mockResolvedValueOnce(COMPANY_ERR.ticketInvalid)
      .mockResolvedValueOnce(null);
    const dialog = open({ companyLinked: true, passwordless: true }, 'approve', onSubmit);
    fireEvent.click(
      await within(dialog).findByRole('button', { name: `Approve: sign in again at ${COMPANY}` }),
    );
    await waitFor(() => expect(window.open).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByText(`Waiting for ${COMPANY}…`)).not.toBeNull());
    ticketArrives({ reauthTicket: 'spent' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(COMPANY_ERR.ticketInvalid);
    expect(screen.getByRole('dialog')).toBe(dialog);
    const again = within(dialog).getByRole('button', { name: `Approve: sign in again at ${COMPANY}` });
    await waitFor(() => expect(again).toBeEnabled());
    fireEvent.click(again);
    await waitFor(() => expect(window.open).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByText(`Waiting for ${COMPANY}…`)).not.toBeNull());
    ticketArrives({ reauthTicket: 'fresh' });
    await waitFor(() => expect(onSubmit).toHaveBeenLastCalledWith({ reauthTicket: 'fresh' }, ''));
  });

  it("says a blocked popup and the provider's refusal in the dialog, and signs nothing", async () => {
    stageCompany(true);
    const onSubmit = vi.fn<SignatureSubmit>(async () => null);
    const dialog = open({ companyLinked: true, passwordless: true }, 'approve', onSubmit);
    const go = await within(dialog).findByRole('button', { name: `Approve: sign in again at ${COMPANY}` });
    vi.spyOn(window, 'open').mockReturnValue(null);
    server.use(
      http.post('/dev/company-sign-on/reauth', () =>
        HttpResponse.json({
          authorizationUrl: 'https://idp.example.com/auth?state=st-2',
          binding: 'b',
          expiresAt: '',
        }),
      ),
    );
    fireEvent.click(go);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Allow pop-ups for the portal');
    fakePopup();
    fireEvent.click(within(dialog).getByRole('button', { name: `Approve: sign in again at ${COMPANY}` }));
    await waitFor(() => expect(screen.queryByText(`Waiting for ${COMPANY}…`)).not.toBeNull());
    // a new attempt: the earlier refusal is gone
    expect(within(dialog).queryByRole('alert')).toBeNull();
    ticketArrives({ error: `${COMPANY} did not ask for your password again. Start the confirmation again.` });
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent('did not ask for your password again'),
    );
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBe(dialog);
  });
});

describe('the passkey choice of the signature dialog (decision 368)', () => {
  it('Cancel closes the browser prompt at once and returns to the choice; nothing is sent', async () => {
    server.use(
      http.get('/dev/passkeys', () =>
        HttpResponse.json({
          passkeys: [{ id: 'pk-a', name: 'Work laptop', createdAt: '2026-11-01T00:00:00.000Z' }],
          requiredForSignatures: false,
          stageRequiresPasskeys: false,
          requiredRoles: [],
        }),
      ),
      http.post('/dev/passkeys/signature-options', () =>
        HttpResponse.json({
          ceremonyId: 'c-1',
          expiresAt: new Date(Date.now() + 300_000).toISOString(),
          publicKey: {
            challenge: 'AAAAAAAAAAAAAAAAAAAAAA',
            rpId: 'portal.test',
            userVerification: 'required',
          },
        }),
      ),
    );
    // the browser's prompt: open until its signal aborts (a real one waits for the authenticator's timeout)
    let signal: AbortSignal | undefined;
    const get = vi.fn(
      (options: { signal?: AbortSignal }) =>
        new Promise((_resolve, reject) => {
          signal = options.signal;
          options.signal?.addEventListener('abort', () => reject(options.signal?.reason));
        }),
    );
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    Object.defineProperty(navigator, 'credentials', { value: { get }, configurable: true });
    const onSubmit = vi.fn<SignatureSubmit>(async () => null);
    const dialog = open({}, 'approve', onSubmit);
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Approve with a passkey' }));
    const cancel = await within(dialog).findByRole('button', { name: 'Cancel the passkey prompt' });
    await waitFor(() => expect(get).toHaveBeenCalledTimes(1));
    expect(within(dialog).getByRole('button', { name: MSG.cancel })).toBeDisabled();
    fireEvent.click(cancel);
    expect(signal?.aborted).toBe(true);
    // back at the choice: the passkey again, the password, the dialog's own Cancel; no refusal said
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Approve with a passkey' })).toBeEnabled(),
    );
    expect(within(dialog).queryByRole('button', { name: 'Cancel the passkey prompt' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: MSG.cancel })).toBeEnabled();
    expect(within(dialog).getByLabelText(/^Your password/)).toBeEnabled();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(onSubmit).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });
});
