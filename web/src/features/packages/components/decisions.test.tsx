import type { Package } from '@shared/api/contracts/packages';
import { MSG } from '@shared/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { FlowPurpose } from '@/lib/session/session-store';
import { session } from '@/lib/session/session-store';
import { replacePackage, server, storedPackage } from '@/testing/backend/server';
import { MOCK_PASSWORD } from '@/testing/mocks/fixtures';
import { fill } from '@/testing/render-app';
import { atPath, fixturePackage, mayApproveNow, openWith } from '../testing/package-test-utils';

/** Makes every approver of a fixture package but `userId` approved (on the mock server) and returns it. */
async function onlyWaitingFor(
  id: string,
  userId: string,
  list: 'approvers' | 'deliveryApprovers' = 'approvers',
): Promise<Package> {
  const pkg = fixturePackage(id);
  pkg[list] = pkg[list].map((a) => ({ ...a, approved: a.user.id !== userId, rejected: false }));
  await replacePackage(structuredClone(pkg));
  return pkg;
}

async function openHeaderView(as: string, pkg: Package | string, flow: FlowPurpose) {
  const view = openWith('/packages/header/view', { as, pkg, flow });
  await screen.findByRole('table', { name: 'Package header' });
  return view;
}

const press = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

/** Signs in the open signature dialog (decision 141) with the mock password and presses its action. */
async function signInDialog(password = MOCK_PASSWORD) {
  const dialog = (await screen.findByRole('dialog')) as HTMLElement;
  fill(within(dialog).getByLabelText(/^Your password/), password);
  fireEvent.click(within(dialog).getAllByRole('button').at(-1) as HTMLElement);
  return dialog;
}

describe('header view (spec §2.9)', () => {
  it('shows Name, Value and Hex value, read-only, with Approve, Reject and Back in the approve flow', async () => {
    await openHeaderView(mayApproveNow('pk-approve-dev'), 'pk-approve-dev', 'approve');
    const table = screen.getByRole('table', { name: 'Package header' });
    expect([...table.querySelectorAll('thead th')].map((h) => h.textContent)).toEqual([
      MSG.colName,
      MSG.colValue,
      MSG.colHexValue,
    ]);
    expect(table.querySelector('input, select')).toBeNull();
    expect(screen.getByText('Update Operation Type').closest('tr')).toHaveTextContent('INSTALL0x00');
    expect(screen.getByRole('button', { name: MSG.approve })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: MSG.reject })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: MSG.back })).toBeInTheDocument();
  });

  it('shows Sign in the signing flow', async () => {
    await openHeaderView('u-sw', 'pk-sign-rel', 'sign');
    expect(screen.getByRole('button', { name: MSG.sign })).toBeInTheDocument();
  });

  it('is read-only with Back alone outside decision flows', async () => {
    await openHeaderView('u-lead', 'p-3', 'release');
    expect(screen.queryByRole('button', { name: MSG.approve })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: MSG.reject })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: MSG.continue })).not.toBeInTheDocument();
  });
});

describe('approve outcomes (spec §4.5, §4.6, DESIGN §2)', () => {
  it("says 'Approved successfully, waiting for other approvals.' and goes home", async () => {
    const { router } = await openHeaderView(mayApproveNow('pk-approve-dev'), 'pk-approve-dev', 'approve');
    press(MSG.approve);
    await signInDialog();
    expect(await screen.findByText(MSG.approvedWaiting)).toBeInTheDocument();
    press(MSG.close);
    await atPath(router, '/home');
  });

  it("says 'Package is fully approved. Waiting for signing.' for the last approval of a signed package", async () => {
    await openHeaderView('u-lead', await onlyWaitingFor('pk-approve-rel', 'u-lead'), 'approve');
    press(MSG.approve);
    await signInDialog();
    expect(await screen.findByText(MSG.approvedWaitingSigning)).toBeInTheDocument();
  });

  it('opens the download page when the last approval generates the package: Generating… with progress, then the ready package by itself', async () => {
    const { router } = await openHeaderView(
      'u-lead',
      await onlyWaitingFor('pk-approve-dev', 'u-lead'),
      'approve',
    );
    press(MSG.approve);
    await signInDialog();
    await atPath(router, '/packages/download');
    expect(await screen.findByRole('heading', { name: MSG.generatedDevPackageTitle })).toBeInTheDocument();
    // generated off the request path (decision 160)
    // the alert, and the package's state beside its name
    expect((await screen.findAllByText('Generating…')).length).toBeGreaterThan(0);
    expect(screen.getByLabelText('Package')).toHaveTextContent(/StateGenerating…/);
    expect(screen.getByRole('progressbar', { name: 'Generating' })).toBeInTheDocument();
    // the real generator's size estimate of this package
    expect(screen.getByTestId('generation-bytes').textContent).toMatch(/^\d+\.\d MiB of \d+\.\d MiB$/);
    expect(await screen.findByText(MSG.success, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(session.get().currentPackage).toMatchObject({
      status: 'APPROVED',
      linkToS3: expect.stringMatching(/^packages\//),
    });
    expect(screen.queryByText('Generating…')).toBeNull();
  });

  it('opens RELEASE PACKAGE DELIVERY when the last delivery approval delivers the package', async () => {
    const pkg = await onlyWaitingFor('pk-deliv-pending', 'u-lead', 'deliveryApprovers');
    const { router } = await openHeaderView('u-lead', pkg, 'approve-delivery');
    press(MSG.approve);
    await signInDialog();
    await atPath(router, '/packages/download');
    expect(await screen.findByRole('heading', { name: MSG.releasePackageDelivery })).toBeInTheDocument();
    expect(session.get().currentPackage?.mLifePath).toBeTruthy();
  });

  it('waits for the other delivery approvers', async () => {
    await openHeaderView('u-lead', 'pk-deliv-pending', 'approve-delivery');
    press(MSG.approve);
    await signInDialog();
    expect(await screen.findByText(MSG.approvedWaiting)).toBeInTheDocument();
  });

  it('signs and opens GENERATED NEW SIGNED RELEASE PACKAGE', async () => {
    const { router } = await openHeaderView('u-sw', 'pk-sign-rel', 'sign');
    press(MSG.sign);
    await signInDialog();
    await atPath(router, '/packages/download');
    expect(
      await screen.findByRole('heading', { name: MSG.generatedSignedReleasePackageTitle }),
    ).toBeInTheDocument();
  });

  it("shows the server's words when the package moved on", async () => {
    server.use(
      http.post('/dev/packages/:id/approve', () =>
        HttpResponse.json(
          { errorMessage: 'The package is not waiting for package approval' },
          { status: 409 },
        ),
      ),
    );
    await openHeaderView(mayApproveNow('pk-approve-dev'), 'pk-approve-dev', 'approve');
    press(MSG.approve);
    await signInDialog();
    expect(await screen.findByText('The package is not waiting for package approval')).toBeInTheDocument();
  });
});

describe('rejection (spec §2.9, §4.6, §5)', () => {
  it.each<[string, FlowPurpose, string, string]>([
    ['an approval', 'approve', 'pk-approve-dev', '/dev/packages/pk-approve-dev/reject'],
    ['a delivery', 'approve-delivery', 'pk-deliv-pending', '/dev/delivery/packages/pk-deliv-pending/reject'],
    ['a signature', 'sign', 'pk-sign-dev', '/dev/packages/pk-sign-dev/reject-signing'],
  ])('rejects %s through its own call after a reason is given', async (_what, flow, id, path) => {
    let call: { path: string; body: unknown } | undefined;
    server.events.on('request:start', async ({ request }) => {
      if (request.url.includes('/reject'))
        call = { path: new URL(request.url).pathname, body: await request.clone().json() };
    });
    const as = flow === 'sign' ? 'u-sw' : 'u-lead';
    const { router } = await openHeaderView(as, id, flow);
    // the comparison the page shows goes with the decision (decision 266)
    await waitFor(() => expect(screen.queryByText('Loading the comparison…')).toBeNull());
    press(MSG.reject);
    expect(await screen.findByRole('heading', { name: MSG.confirmRejectionTitle })).toBeInTheDocument();
    const reject = screen.getAllByRole('button', { name: MSG.reject }).at(-1) as HTMLElement;
    expect(reject).toBeDisabled();
    fill(screen.getByLabelText('Reason for the rejection'), '   ');
    expect(reject).toBeDisabled();
    fill(screen.getByLabelText('Reason for the rejection'), ' Wrong serial range ');
    expect(reject).toBeDisabled();
    fill(screen.getByLabelText(/^Your password/), MOCK_PASSWORD);
    expect(reject).toBeEnabled();
    fireEvent.click(reject);
    expect(await screen.findByText(MSG.rejectionConfirmed)).toBeInTheDocument();
    expect(call).toEqual({
      path,
      body: {
        'rejection-reason': 'Wrong serial range',
        password: MOCK_PASSWORD,
        changesSeen: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    expect(screen.queryByRole('heading', { name: MSG.confirmRejectionTitle })).not.toBeInTheDocument();
    press(MSG.close);
    await atPath(router, '/home');
    server.events.removeAllListeners();
  });

  it('closes the dialog on Cancel without rejecting', async () => {
    openWith('/packages/approve/view', { as: 'u-lead', pkg: 'pk-approve-dev', flow: 'approve' });
    fireEvent.click(await screen.findByRole('button', { name: MSG.reject }));
    const dialog = (await screen.findByRole('heading', { name: MSG.confirmRejectionTitle })).closest(
      'dialog',
    ) as HTMLElement;
    fireEvent.click(within(dialog).getByRole('button', { name: MSG.cancel }));
    expect(screen.queryByRole('heading', { name: MSG.confirmRejectionTitle })).not.toBeInTheDocument();
    expect((await storedPackage('pk-approve-dev'))?.status).toBe('PENDING_APPROVAL');
  });
});
