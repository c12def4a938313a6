import { MSG } from '@shared/messages';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { session } from '@/lib/session/session-store';
import { server } from '@/testing/backend/server';
import { PACKAGES } from '@/testing/mocks/fixtures';
import { renderApp } from '@/testing/render-app';

const section = () => screen.getByRole('region', { name: /^Waiting for you/ });
const group = (name: string) => within(section()).getByRole('region', { name: new RegExp(`^${name} \\d+$`) });
const groupNames = () =>
  within(section())
    .queryAllByRole('heading', { level: 3 })
    .map((h) => h.textContent);
const loaded = () => waitFor(() => expect(section()).toHaveAttribute('aria-busy', 'false'));

describe('home page: Waiting for you', () => {
  it('keeps the slogan and the logo above the section', async () => {
    renderApp('/home', { as: 'u-lead' });
    const slogan = await screen.findByRole('heading', { level: 1, name: MSG.slogan });
    const hero = screen.getByRole('region', { name: MSG.slogan });
    expect(within(hero).getByRole('img', { name: 'Firmware Release Portal' })).toHaveAttribute(
      'width',
      '160',
    );
    await loaded();
    // the hero comes first in the document, the section after it
    expect(slogan.compareDocumentPosition(section()) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('lists the approvals and delivery approvals waiting for an approver, each linking to the package', async () => {
    renderApp('/home', { as: 'u-lead' });
    await loaded();
    expect(groupNames()).toEqual(['Approvals 2', 'Delivery approvals 1']);
    expect(within(section()).getByRole('heading', { level: 2 })).toHaveTextContent('Waiting for you3');
    const approvals = within(group('Approvals')).getAllByRole('link');
    expect(approvals.map((a) => a.getAttribute('aria-label')).sort()).toEqual([
      'Approve or reject: IP-3.2.1 bench build',
      'Approve or reject: VC-1.7.2 RC2',
    ]);
    expect(within(group('Approvals')).getByRole('link', { name: /VC-1.7.2 RC2/ })).toHaveAttribute(
      'href',
      '/packages/open/pk-approve-rel',
    );
    expect(within(group('Delivery approvals')).getByRole('link')).toHaveAttribute(
      'href',
      '/packages/open/pk-deliv-pending',
    );
    // another user's draft is not this user's work
    expect(within(section()).queryByText('IP-3.2.1 nightly')).not.toBeInTheDocument();
  });

  it('says a delivery comes from the release engineer who sent it, not from the initiator', async () => {
    renderApp('/home', { as: 'u-lead' });
    await loaded();
    const row = within(group('Delivery approvals')).getByRole('link');
    expect(row).toHaveTextContent(/sent for delivery by Sam Release · initiated by /);
    expect(row.textContent).not.toMatch(/· from /);
    // an approval still comes from its initiator
    expect(within(group('Approvals')).getAllByRole('link')[0]).toHaveTextContent(/· from /);
  });

  it('opens an approval on the approve view, as a click in the approval list does', async () => {
    const { user, router } = renderApp('/home', { as: 'u-lead' });
    await loaded();
    await user.click(within(group('Approvals')).getByRole('link', { name: /VC-1.7.2 RC2/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/packages/approve/view'));
    expect(session.get()).toMatchObject({
      currentPackage: { id: 'pk-approve-rel' },
      flowPurpose: 'approve',
      subHeader: MSG.approveReleasePackageTitle,
    });
  });

  it('lists the signatures waiting for a signer and opens one on the sign view', async () => {
    const { user, router } = renderApp('/home', { as: 'u-sw' });
    await loaded();
    expect(groupNames()).toContain('Signatures 2');
    await user.click(within(group('Signatures')).getByRole('link', { name: /VC-1.7.2 final/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/packages/sign/view'));
    expect(session.get()).toMatchObject({ flowPurpose: 'sign', subHeader: MSG.releasePackageApproved });
  });

  it("lists the user's own drafts and opens one on its details page", async () => {
    const { user, router } = renderApp('/home', { as: 'u-dev' });
    await loaded();
    expect(groupNames()).toContain('Your drafts 1');
    const draft = within(group('Your drafts')).getByRole('link');
    expect(draft).toHaveAccessibleName('Continue the draft: IP-3.2.1 nightly');
    await user.click(draft);
    await waitFor(() => expect(router.state.location.pathname).toBe('/packages/dev/view'));
    expect(session.get()).toMatchObject({ currentPackage: { id: 'p-1' }, flowPurpose: 'dev' });
  });

  it("says on a row's own line whom a stalled package waits on, and why a rejected one came back", async () => {
    const stalled = PACKAGES.find((p) => p.status === 'PENDING_APPROVAL')!;
    const rejected = {
      ...PACKAGES.find((p) => p.id === 'p-1')!,
      status: 'REJECTED',
      rejectionNote: 'Wrong DCC',
    };
    const sentence =
      'waits for Dana Departed (Technical Leader), who no longer holds that role: reassign or withdraw';
    server.use(
      http.get('/dev/attention/packages', () =>
        HttpResponse.json({
          stalled: JSON.stringify([{ package: stalled, departures: [{ text: sentence }] }]),
          rejected: JSON.stringify([rejected]),
        }),
      ),
    );
    renderApp('/home', { as: 'u-dev' });
    await loaded();
    const row = within(group('Waiting on someone who left')).getByRole('link', {
      name: `Reassign or withdraw: ${stalled.name}`,
    });
    expect(within(row).getByTestId('departure-note')).toHaveTextContent(`This package ${sentence}.`);
    // not squeezed into the meta column beside the name: a line of its own
    expect(within(row).getByTestId('departure-note')).toHaveClass('frp-work__why');
    const back = within(group('Rejected: revise or leave')).getByRole('link');
    expect(within(back).getByTestId('rejection-note')).toHaveTextContent('Rejected: Wrong DCC');
  });

  it('says so, with a way on, when nothing waits', async () => {
    const empty = () => HttpResponse.json({ packages: '[]' });
    server.use(
      http.get('/dev/:stage/packages/approval', empty),
      http.get('/dev/:stage/packages/signing', empty),
      http.get('/dev/:stage/packages', empty),
    );
    renderApp('/home', { as: 'u-dev' });
    await loaded();
    expect(within(section()).getByText(/^Nothing waits for you right now\./)).toBeInTheDocument();
    expect(within(section()).getByRole('link', { name: 'See all packages' })).toHaveAttribute(
      'href',
      '/packages',
    );
    expect(within(section()).getByRole('link', { name: 'Upload a patch or model' })).toHaveAttribute(
      'href',
      '/upload',
    );
    expect(groupNames()).toEqual([]);
  });

  it('asks nothing of an account whose role waits: it is sent to its settings', async () => {
    const asked: string[] = [];
    const onRequest = ({ request }: { request: Request }) => asked.push(new URL(request.url).pathname);
    server.events.on('request:start', onRequest);
    const { router } = renderApp('/home', { as: 'u-pending' });
    expect(await screen.findByRole('heading', { name: MSG.settings })).toBeInTheDocument();
    server.events.removeListener('request:start', onRequest);
    expect(router.state.location.pathname).toBe('/user/settings');
    expect(asked.filter((p) => /\/packages|\/resources|\/dcc/.test(p))).toEqual([]);
  });
});
