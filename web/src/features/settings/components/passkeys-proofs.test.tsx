import { COMPANY_ERR } from '@shared/domain/company-sign-on';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { REAUTH_MESSAGE } from '@/lib/company-sign-on/pending-sign-on';
import { type SessionUser, signIn } from '@/lib/session/session-store';
import { setToken } from '@/lib/session/token-cookie';
import { server, tokenOf } from '@/testing/backend/server';
import { USERS } from '@/testing/mocks/fixtures';
import { fill } from '@/testing/render-app';
import { Passkeys } from './passkeys';

/**
 * Settings → Passkeys for a person a company identity signs in as (decision 368): adding a passkey is
 * confirmed with a fresh sign-in at the company; without a portal password there is no password field.
 */

const COMPANY = 'Example Corp';
const lead = USERS.find((u) => u.id === 'u-lead')!;

function renderAs(as: Partial<SessionUser>) {
  setToken(tokenOf('u-lead'));
  signIn({ ...lead, ...as } as SessionUser);
  server.use(
    http.get('/dev/company-sign-on', () => HttpResponse.json({ enabled: true, companyName: COMPANY })),
  );
  render(
    <AppProvider>
      <Passkeys />
    </AppProvider>,
  );
  return screen.getByRole('form', { name: 'Add a passkey' });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Settings → Passkeys with a company sign-in (decision 368)', () => {
  it('a person without a portal password adds with a fresh company sign-in: the ticket is the proof', async () => {
    const popup = { location: { href: 'about:blank' }, closed: false, close: vi.fn() };
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    const proofs: unknown[] = [];
    server.use(
      http.post('/dev/company-sign-on/reauth', () =>
        HttpResponse.json({
          authorizationUrl: 'https://idp.example.com/auth?state=st-9',
          binding: 'b-9',
          expiresAt: new Date(Date.now() + 300_000).toISOString(),
        }),
      ),
      http.post('/dev/passkeys/registration-options', async ({ request }) => {
        proofs.push(await request.json());
        return HttpResponse.json({ errorMessage: COMPANY_ERR.ticketInvalid }, { status: 403 });
      }),
    );
    const form = renderAs({ passwordless: true, companyLinked: true });
    const go = await within(form).findByRole('button', { name: `Sign in again at ${COMPANY}` });
    expect(within(form).queryByLabelText(/^Your password/)).toBeNull();
    // the name first
    expect(go).toBeDisabled();
    fill(within(form).getByLabelText(/^Name/), 'Work laptop');
    expect(go).toBeEnabled();
    fireEvent.click(go);
    await waitFor(() => expect(popup.location.href).toContain('https://idp.example.com/auth'));
    window.dispatchEvent(
      new MessageEvent('message', {
        origin: window.location.origin,
        data: { type: REAUTH_MESSAGE, reauthTicket: 'ticket-9' },
      }),
    );
    await waitFor(() => expect(proofs).toEqual([{ reauthTicket: 'ticket-9' }]));
    // the server's refusal is said on the form; the name stays for a second attempt
    expect(await within(form).findByText(COMPANY_ERR.ticketInvalid)).toBeInTheDocument();
    expect(within(form).getByLabelText(/^Name/)).toHaveValue('Work laptop');
  });

  it('a person with a password and a company identity is offered both', async () => {
    const linked = renderAs({ companyLinked: true });
    expect(
      await within(linked).findByRole('button', { name: `Sign in again at ${COMPANY}` }),
    ).toBeInTheDocument();
    expect(within(linked).getByLabelText(/^Your password/)).toBeInTheDocument();
  });
});
