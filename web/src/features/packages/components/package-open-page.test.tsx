import { MSG } from '@shared/messages';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { session } from '@/lib/session/session-store';
import { putTombstone, server } from '@/testing/backend/server';
import { MOCK_PASSWORD } from '@/testing/mocks/fixtures';
import { fill, renderApp } from '@/testing/render-app';
import { atPath } from '../testing/package-test-utils';

/** /packages/open/{id}, the link of every workflow mail, opens the page of the user's list. */
describe('deep link to one package', () => {
  it.each([
    [
      'an approver to the approve view',
      'u-lead',
      'pk-approve-dev',
      '/packages/approve/view',
      'approve',
      MSG.approveDevPackageTitle,
      'approval',
    ],
    [
      'the signer to the sign view',
      'u-sw',
      'pk-sign-rel',
      '/packages/sign/view',
      'sign',
      MSG.releasePackageApproved,
      'signing',
    ],
    [
      'a delivery approver to the approve view of the delivery',
      'u-lead',
      'pk-deliv-pending',
      '/packages/approve/view',
      'approve-delivery',
      MSG.approveDeliveryPackageTitle,
      'approval',
    ],
    [
      'the initiator, who decides nothing, to the page of the package list',
      'u-dev',
      'pk-deliv-pending',
      '/packages/approval-pending/view',
      'delivery',
      MSG.packageApprovalPending,
      'packages',
    ],
    [
      'anyone to a draft of the development stage',
      'u-lead',
      'p-1',
      '/packages/dev/view',
      'dev',
      MSG.packageGenerated,
      'packages',
    ],
  ])('opens %s', async (_what, as, id, path, flowPurpose, subHeader, selectedTab) => {
    const { router } = renderApp(`/packages/open/${id}`, { as });
    await atPath(router, path);
    expect(session.get()).toMatchObject({
      currentPackage: { id },
      flowPurpose,
      subHeader,
      selectedTab,
    });
    expect(await screen.findByRole('heading', { level: 1, name: subHeader })).toBeInTheDocument();
  });

  it('says so when the package does not exist, and stores nothing', async () => {
    session.update({ currentPackage: null });
    const { router } = renderApp('/packages/open/no-such-package', { as: 'u-lead' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link opens no package: Package not found.',
    );
    expect(router.state.location.pathname).toBe('/packages/open/no-such-package');
    expect(session.get().currentPackage).toBeNull();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('says who deleted a package, when and why, when its mail link is opened after an admin deleted it', async () => {
    session.update({ currentPackage: null });
    await putTombstone({
      id: 'pk-gone',
      name: 'IP-3.2.0 recalled',
      status: 'PENDING_APPROVAL',
      deletedAt: '2026-11-27T06:40:00.000Z',
      deletedBy: { id: 'u-admin', name: 'Ada Admin', userRole: 'ADMIN' },
      reason: 'Built from the wrong branch',
    });
    renderApp('/packages/open/pk-gone', { as: 'u-lead' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "This link opens no package: Package 'IP-3.2.0 recalled' was deleted by Ada Admin (Admin) on 27 Nov 2026, 06:40 UTC. Reason: Built from the wrong branch.",
    );
    expect(session.get().currentPackage).toBeNull();
  });

  it('keeps the link through sign-in and opens the package after it', async () => {
    const { router, user } = renderApp('/packages/open/pk-approve-dev');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent('/packages/open/pk-approve-dev')}`);
    fill(await screen.findByLabelText(/Email address/), 'technical-leader@example.com');
    fill(screen.getByLabelText(/^Password/), MOCK_PASSWORD);
    await user.click(screen.getByRole('button', { name: MSG.submit }));
    await atPath(router, '/packages/approve/view');
    expect(session.get()).toMatchObject({ currentPackage: { id: 'pk-approve-dev' }, flowPurpose: 'approve' });
  });

  it('keeps the link through a session timeout on the way', async () => {
    // the browser's address is the page's (the test router keeps its own; the popup reads the browser's)
    window.history.replaceState(null, '', '/packages/open/pk-approve-dev');
    server.use(
      http.get('/dev/packages/:id/details', () =>
        HttpResponse.json({ errorMessage: 'Token expired' }, { status: 401 }),
      ),
    );
    try {
      const { router, user } = renderApp('/packages/open/pk-approve-dev', { as: 'u-lead' });
      const dialog = await screen.findByRole('alertdialog');
      expect(dialog).toHaveTextContent(MSG.sessionTimeout);
      await user.click(within(dialog).getByRole('button', { name: MSG.toLoginPage }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
      expect(router.state.location.search).toBe(
        `?next=${encodeURIComponent('/packages/open/pk-approve-dev')}`,
      );
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it.each([
    ['another host', '//evil.example/packages'],
    ['a backslash host', '/\\evil.example'],
    ['an absolute URL', 'https://evil.example/'],
    ['a script', 'javascript:alert(1)'],
    ['a tab inside the host', '/\t/evil.example'],
  ])('never follows %s after sign-in (no open redirect)', async (_what, next) => {
    const { router, user } = renderApp(`/login?next=${encodeURIComponent(next)}`);
    fill(await screen.findByLabelText(/Email address/), 'technical-leader@example.com');
    fill(screen.getByLabelText(/^Password/), MOCK_PASSWORD);
    await user.click(screen.getByRole('button', { name: MSG.submit }));
    await atPath(router, '/home');
    expect(window.location.href).not.toContain('evil.example');
  });
});
