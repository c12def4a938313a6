import type { Package } from '@shared/api/contracts/packages';
import { PACKAGE_PAGE_MAX } from '@shared/api/paging';
import { MSG } from '@shared/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { session } from '@/lib/session/session-store';
import { putPackage, replacePackage, server, storedPackages } from '@/testing/backend/server';
import { fill, renderApp } from '@/testing/render-app';
import { atPath, fixturePackage } from '../testing/package-test-utils';

const EMPTY_APPROVALS = 'Nothing waits for your approval here';

const headers = (table: HTMLElement) =>
  [...table.querySelectorAll('thead th')].map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim());
const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
/** A tab by its label; the approval and signing lists add the count of what waits. */
const tab = (name: string) => screen.getByRole('tab', { name: new RegExp(`^${name}( \\d+)?$`) });
const range = () => screen.getByText(/^\d+-\d+ of \d+$/).textContent;

describe('package list (spec §2.5, §4.3, §4.8)', () => {
  it('shows Development, Release and Delivery with the spec columns, Development first', async () => {
    renderApp('/packages', { as: 'u-lead' });
    expect(await screen.findByText('IP-3.2.1 bench build')).toBeInTheDocument();
    expect(['Development', 'Release', 'Delivery'].map((t) => tab(t).getAttribute('aria-selected'))).toEqual([
      'true',
      'false',
      'false',
    ]);
    expect(headers(screen.getByRole('table'))).toEqual([
      MSG.colPackageName,
      MSG.colResourceType,
      MSG.colResourceStage,
      MSG.colIsSigned,
      MSG.colNote,
    ]);
    expect(session.get().flowPurpose).toBe('dev');
  });

  it('resets search and page on a tab switch, loads that stage and sets the flow purpose', async () => {
    const { user } = renderApp('/packages', { as: 'u-lead' });
    await screen.findByText('IP-3.2.1 bench build');
    fill(screen.getByLabelText('Search'), 'nightly');
    await waitFor(() => expect(range()).toBe('1-2 of 2'));
    await user.click(tab(MSG.tabRelease));
    expect(await screen.findByText('VC-1.7.2 RC2')).toBeInTheDocument();
    expect(screen.getByLabelText('Search')).toHaveValue('');
    expect(session.get().flowPurpose).toBe('release');
    await waitFor(() => expect(range()).toBe('1-5 of 8'));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(range()).toBe('6-8 of 8'));
    await user.click(tab(MSG.tabDelivery));
    expect(await screen.findByText('IP-3.1.0 field release')).toBeInTheDocument();
    await waitFor(() => expect(range()).toBe('1-3 of 3'));
    expect(session.get().flowPurpose).toBe('delivery');
  });

  it("labels delivery rows 'Package rejected' and 'Approval pending: X/Y' and highlights them", async () => {
    session.update({ flowPurpose: 'delivery' });
    renderApp('/packages', { as: 'u-lead' });
    await screen.findByText('IP-3.1.0 field release');
    expect(within(rowOf('IP-3.1.0 field release')).getByText('Approval pending: 2/4')).toBeInTheDocument();
    expect(rowOf('IP-3.1.0 field release')).toHaveClass('frp-row--pending');
    expect(
      within(rowOf('VC-1.7.2 hospital rollout')).getByText(MSG.deliveryRejectedLabel),
    ).toBeInTheDocument();
    expect(rowOf('VC-1.7.2 hospital rollout')).toHaveClass('frp-row--rejected');
    expect(
      within(rowOf('ArrhythmiaNet 2.2 rollout')).queryByTestId('delivery-label'),
    ).not.toBeInTheDocument();
    expect(rowOf('ArrhythmiaNet 2.2 rollout').className).not.toMatch(/frp-row--(rejected|pending)/);
  });

  it('reads a long list one page at a time: search, sort, page and total come from the server', async () => {
    const dev = (await storedPackages()).filter((p) => p.resourceStage === 'DEV');
    const template = dev.find((p) => p.status === 'DRAFT')!;
    for (let i = 0; i < 2 * PACKAGE_PAGE_MAX + 7; i++)
      await putPackage({
        ...structuredClone(template),
        id: `bulk-${i}`,
        name: `Bulk build ${i}`,
        // newest first: Bulk build 0 heads the list
        createdAt: new Date(Date.UTC(2025, 0, 1) - i * 1000).toISOString(),
      });
    const asked: URLSearchParams[] = [];
    const onRequest = ({ request }: { request: Request }) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith('/dev/packages')) asked.push(url.searchParams);
    };
    server.events.on('request:start', onRequest);
    try {
      const { user } = renderApp('/packages', { as: 'u-lead' });
      expect(await screen.findByText('Bulk build 0')).toBeInTheDocument();
      // every development package the mock holds, counted by the server
      const total = (await storedPackages()).filter((p) => p.resourceStage === 'DEV').length;
      expect(total).toBeGreaterThan(2 * PACKAGE_PAGE_MAX);
      await waitFor(() => expect(range()).toBe(`1-5 of ${total}`));
      expect(screen.getAllByRole('row')).toHaveLength(6);
      // the last package is found by the server's search
      fill(screen.getByLabelText('Search'), `bulk BUILD ${2 * PACKAGE_PAGE_MAX + 6}`);
      expect(await screen.findByText(`Bulk build ${2 * PACKAGE_PAGE_MAX + 6}`)).toBeInTheDocument();
      await waitFor(() => expect(range()).toBe('1-1 of 1'));
      fill(screen.getByLabelText('Search'), 'Bulk build 200');
      await waitFor(() => expect(range()).toBe('1-5 of 8'));
      // sorted by name, descending, on the server, numbers as numbers: 2006 first, 200 last
      await user.click(screen.getByRole('button', { name: new RegExp(MSG.colPackageName) }));
      await user.click(screen.getByRole('button', { name: new RegExp(MSG.colPackageName) }));
      await waitFor(() => expect(screen.getAllByRole('row')[1]).toHaveTextContent('Bulk build 2006'));
      await user.click(screen.getByRole('button', { name: 'Next page' }));
      await waitFor(() => expect(range()).toBe('6-8 of 8'));
      expect(screen.getAllByRole('row').at(-1)).toHaveTextContent('Bulk build 200');
      // no read asked for more than one page of the table, and none walked the list
      expect(asked.length).toBeGreaterThan(3);
      for (const q of asked) {
        expect(Number(q.get('limit'))).toBeLessThanOrEqual(25);
        expect(q.get('cursor')).toBeNull();
      }
      expect(asked.at(-1)?.toString()).toBe('offset=5&limit=5&search=Bulk+build+200&sort=name&order=desc');
    } finally {
      server.events.removeListener('request:start', onRequest);
    }
  }, 60_000); // 27 more packages through the real list rules: slow on a busy machine

  it('searches by name, resource name and note', async () => {
    renderApp('/packages', { as: 'u-lead' });
    await screen.findByText('IP-3.2.1 bench build');
    fill(screen.getByLabelText('Search'), 'PRESSURE SENSOR');
    await waitFor(() => expect(range()).toBe('1-1 of 1'));
    fill(screen.getByLabelText('Search'), 'ecg-holter');
    expect(await screen.findByText('ECG-0.9.7 nightly')).toBeInTheDocument();
  });

  it.each([
    [
      'a development package',
      MSG.tabDevelopment,
      'IP-3.2.1 bench build',
      '/packages/dev/view',
      MSG.packageGenerated,
    ],
    [
      'a rejected delivery',
      MSG.tabDelivery,
      'VC-1.7.2 hospital rollout',
      '/packages/rejected/view',
      'REJECTED',
    ],
    [
      'a pending delivery',
      MSG.tabDelivery,
      'IP-3.1.0 field release',
      '/packages/approval-pending/view',
      'PACKAGE APPROVAL PENDING',
    ],
    ['a release package', MSG.tabRelease, 'VC-1.7.2 release', '/packages/release/view', 'PACKAGE GENERATED'],
  ])('opens %s on a row click and stores it', async (_what, tabName, name, path, subHeader) => {
    const { user, router } = renderApp('/packages', { as: 'u-lead' });
    await screen.findByText('IP-3.2.1 bench build');
    await user.click(tab(tabName));
    fireEvent.click(await screen.findByText(name));
    await atPath(router, path);
    expect(session.get()).toMatchObject({ currentPackage: { name }, subHeader });
    expect(await screen.findByRole('heading', { level: 1, name: subHeader })).toBeInTheDocument();
  });
});

describe('approval list (spec §2.6)', () => {
  it('heads each tab with APPROVE … PACKAGE and lists only what waits for the user', async () => {
    const { user } = renderApp('/packages/approve', { as: 'u-lead' });
    expect(await screen.findByRole('heading', { name: MSG.approveDevPackageTitle })).toBeInTheDocument();
    expect(await screen.findByText('IP-3.2.1 bench build')).toBeInTheDocument();
    expect(range()).toBe('1-1 of 1');
    expect(session.get().flowPurpose).toBe('approve');
    await user.click(tab(MSG.tabRelease));
    expect(await screen.findByRole('heading', { name: MSG.approveReleasePackageTitle })).toBeInTheDocument();
    expect(await screen.findByText('VC-1.7.2 RC2')).toBeInTheDocument();
    await user.click(tab(MSG.tabDelivery));
    expect(await screen.findByRole('heading', { name: MSG.approveDeliveryPackageTitle })).toBeInTheDocument();
    expect(session.get().flowPurpose).toBe('approve-delivery');
  });

  it('shows no status label or highlight in the approval flow', async () => {
    session.update({ flowPurpose: 'approve-delivery' });
    renderApp('/packages/approve', { as: 'u-rel' });
    await screen.findByText('IP-3.1.0 field release');
    expect(screen.queryByText('Approval pending: 2/4')).not.toBeInTheDocument();
    expect(rowOf('IP-3.1.0 field release').className).not.toMatch(/frp-row--(rejected|pending)/);
    expect(headers(screen.getByRole('table'))).toEqual([
      MSG.colPackageName,
      MSG.colResourceType,
      MSG.colResourceStage,
      MSG.colIsSigned,
      MSG.colNote,
    ]);
  });

  it('opens the approve view with the list header as subheader', async () => {
    const { router } = renderApp('/packages/approve', { as: 'u-lead' });
    fireEvent.click(await screen.findByText('IP-3.2.1 bench build'));
    await atPath(router, '/packages/approve/view');
    expect(session.get().subHeader).toBe(MSG.approveDevPackageTitle);
  });

  it('sorts by a column: ascending, descending, then back to none', async () => {
    const { user } = renderApp('/packages/approve', { as: 'u-sw' });
    await screen.findByText('IP-3.2.1 bench build');
    const sort = screen.getByRole('button', { name: /Package name/ });
    await user.click(sort);
    expect(sort.closest('th')).toHaveAttribute('aria-sort', 'ascending');
    await user.click(sort);
    expect(sort.closest('th')).toHaveAttribute('aria-sort', 'descending');
    await user.click(sort);
    expect(sort.closest('th')).toHaveAttribute('aria-sort', 'none');
  });
});

describe('signing list (spec §2.6, §4.4)', () => {
  it("keeps the spec's 'Is signed? Yes' and says the signature is still awaited", async () => {
    renderApp('/packages/sign', { as: 'u-sw' });
    await screen.findByText('GLU-BLE 2.0 signed trial');
    const row = rowOf('GLU-BLE 2.0 signed trial');
    expect(within(row).getByTestId('signature-state')).toHaveTextContent('(signature awaited)');
    expect(row).toHaveTextContent(/Yes \(signature awaited\)/);
  });

  it('has Development and Release tabs with SIGN … PACKAGE headers', async () => {
    const { user } = renderApp('/packages/sign', { as: 'u-sw' });
    expect(await screen.findByRole('heading', { name: MSG.signDevPackageTitle })).toBeInTheDocument();
    expect(await screen.findByText('GLU-BLE 2.0 signed trial')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      `${MSG.tabDevelopment} 1`,
      `${MSG.tabRelease} 1`,
    ]);
    await user.click(tab(MSG.tabRelease));
    expect(await screen.findByRole('heading', { name: MSG.signReleasePackageTitle })).toBeInTheDocument();
    expect(await screen.findByText('VC-1.7.2 final')).toBeInTheDocument();
    expect(session.get().flowPurpose).toBe('sign');
  });

  it("opens the sign view with 'RELEASE PACKAGE APPROVED' for a signed release package", async () => {
    session.update({ flowPurpose: 'sign', currentPackage: null });
    const { user, router } = renderApp('/packages/sign', { as: 'u-sw' });
    await screen.findByText('GLU-BLE 2.0 signed trial');
    await user.click(tab(MSG.tabRelease));
    fireEvent.click(await screen.findByText('VC-1.7.2 final'));
    await atPath(router, '/packages/sign/view');
    await waitFor(() => expect(session.get().subHeader).toBe(MSG.releasePackageApproved));
  });
});

describe('tab counts and the first tab with work', () => {
  const tabTexts = () => screen.getAllByRole('tab').map((t) => t.textContent);
  /** A sample package replaced by a changed copy. */
  const changed = (id: string, change: (p: Package) => void) => {
    const pkg = fixturePackage(id);
    change(pkg);
    return replacePackage(pkg);
  };

  it('counts what waits under each approval tab', async () => {
    renderApp('/packages/approve', { as: 'u-lead' });
    expect(await screen.findByText('IP-3.2.1 bench build')).toBeInTheDocument();
    await waitFor(() =>
      expect(tabTexts()).toEqual([`${MSG.tabDevelopment} 1`, `${MSG.tabRelease} 1`, `${MSG.tabDelivery} 1`]),
    );
    expect(tab(MSG.tabDevelopment)).toHaveAttribute('aria-selected', 'true');
  });

  it('opens the approval list on Release when only Release work waits', async () => {
    await changed('pk-approve-dev', (p) => {
      p.approvers = p.approvers.map((a) => ({ ...a, approved: true }));
    });
    await changed('pk-deliv-pending', (p) => {
      p.deliveryApprovers = p.deliveryApprovers.filter((a) => a.user.id !== 'u-lead');
    });
    renderApp('/packages/approve', { as: 'u-lead' });
    expect(await screen.findByText('VC-1.7.2 RC2')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: MSG.approveReleasePackageTitle })).toBeInTheDocument();
    expect(tab(MSG.tabRelease)).toHaveAttribute('aria-selected', 'true');
    expect(tabTexts()).toEqual([`${MSG.tabDevelopment} 0`, `${MSG.tabRelease} 1`, `${MSG.tabDelivery} 0`]);
    expect(screen.queryByText(EMPTY_APPROVALS)).not.toBeInTheDocument();
    expect(session.get().flowPurpose).toBe('approve');
  });

  it('opens the signing list on Release when only a release package waits for the signature', async () => {
    await changed('pk-sign-dev', (p) => {
      p.status = 'SIGNED';
    });
    renderApp('/packages/sign', { as: 'u-sw' });
    expect(await screen.findByText('VC-1.7.2 final')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: MSG.signReleasePackageTitle })).toBeInTheDocument();
    expect(tabTexts()).toEqual([`${MSG.tabDevelopment} 0`, `${MSG.tabRelease} 1`]);
  });

  it('keeps the tab of the package the user comes back from while it has work', async () => {
    session.update({ flowPurpose: 'approve', currentPackage: fixturePackage('pk-approve-rel') });
    renderApp('/packages/approve', { as: 'u-lead' });
    expect(await screen.findByText('VC-1.7.2 RC2')).toBeInTheDocument();
    expect(tab(MSG.tabRelease)).toHaveAttribute('aria-selected', 'true');
  });

  it('opens on Development with zero counts and the empty text when nothing waits', async () => {
    renderApp('/packages/sign', { as: 'u-lead' });
    expect(await screen.findByText('Nothing waits for your signature here')).toBeInTheDocument();
    expect(tabTexts()).toEqual([`${MSG.tabDevelopment} 0`, `${MSG.tabRelease} 0`]);
    expect(tab(MSG.tabDevelopment)).toHaveAttribute('aria-selected', 'true');
  });

  it('leaves the package list without counts', async () => {
    renderApp('/packages', { as: 'u-lead' });
    await screen.findByText('IP-3.2.1 bench build');
    expect(tabTexts()).toEqual([MSG.tabDevelopment, MSG.tabRelease, MSG.tabDelivery]);
  });
});
