import { ADMIN_RESOURCE_LIST, PACKAGE_LIST } from '@shared/domain/list-columns';
import { compareValues, filterRows, sortRows } from '@shared/domain/list-view';
import { ROLE_GRANT_MEANINGS } from '@shared/domain/role-grants';
import { GOVERNANCE_MEANINGS } from '@shared/domain/role-revocations';
import { SIGNATURE_PASSWORD_WRONG } from '@shared/domain/signature-meanings';
import { API_ERR, MSG } from '@shared/messages';
import { act, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REFRESH_MS } from '@/hooks/use-refresh-while';
import {
  changeUser,
  generating,
  memoryBackend,
  putUser,
  replacePackage,
  server,
  storedPackages,
} from '@/testing/backend/server';
import { MOCK_PASSWORD, RESOURCES } from '@/testing/mocks/fixtures';
import { PACKAGE_FIXTURES } from '@/testing/mocks/package-fixtures';
import { fill, renderApp } from '@/testing/render-app';

const headers = async () =>
  within(await screen.findByRole('table'))
    .getAllByRole('columnheader')
    .map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim())
    .filter((h) => h);
const deleteButton = () => screen.getByRole('button', { name: new RegExp(`^${MSG.deleteSelected}`) });
const range = () => screen.getByText(/^\d+-\d+ of \d+$/).textContent;
/** 'Delete selected' opens the confirm dialog; returns it */
const openConfirm = async (user: { click: (el: Element) => Promise<void> }) => {
  await user.click(deleteButton());
  return screen.findByRole('dialog', { name: /^Delete \d+ selected/ });
};
const deletes: string[] = [];
const countDeletes = () => {
  deletes.length = 0;
  server.events.on('request:start', ({ request }) => {
    if (request.method === 'DELETE') deletes.push(new URL(request.url).pathname);
  });
};

describe('admin lists', () => {
  afterEach(() => server.events.removeAllListeners());

  it('lists packages with Package name, Patch name, Signed? and Note, and their State', async () => {
    const { user } = renderApp('/admin/packages', { as: 'u-admin' });
    expect(await screen.findByText('IP-3.2.1 nightly')).toBeInTheDocument();
    expect(await headers()).toEqual(['Package name', 'Patch name', 'Signed?', 'Note', 'State']);
    const stateOf = (name: string) => {
      const cells = within(screen.getByText(name).closest('tr') as HTMLElement).getAllByRole('cell');
      return cells.at(-1)?.textContent;
    };
    expect(stateOf('IP-3.2.1 nightly')).toBe('Draft');
    expect(stateOf('VC-1.7.2 release')).toBe('Signed');
    expect(stateOf('ArrhythmiaNet 2.2')).toBe('Approved');
    // sortable like the other columns: ascending puts 'Approved' before 'Draft'
    const state = screen.getByRole('columnheader', { name: /State/ });
    await user.click(within(state).getByRole('button'));
    expect(state).toHaveAttribute('aria-sort', 'ascending');
    const states = () =>
      within(screen.getByRole('table'))
        .getAllByRole('row')
        .slice(1)
        .map((r) => within(r).getAllByRole('cell').at(-1)?.textContent ?? '');
    // the server sorts (decision 260): the sorted page replaces the first one when it arrives
    await waitFor(() => expect(states()[0]).toBe('Approved'));
    expect([...states()].sort()).toEqual(states());
  });

  it('reads the package table one page at a time: search, sort by State and page go to the server (decision 260)', async () => {
    const asked: string[] = [];
    const onRequest = ({ request }: { request: Request }) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith('/dev/admin/packages') && request.method === 'GET')
        asked.push(url.searchParams.toString());
    };
    server.events.on('request:start', onRequest);
    try {
      const all = await storedPackages();
      expect(all.length).toBeGreaterThan(5);
      const { user } = renderApp('/admin/packages', { as: 'u-admin' });
      await waitFor(() => expect(range()).toBe(`1-5 of ${all.length}`));
      // a header row and the page's five rows: only one page came to the browser, in one read
      expect(screen.getAllByRole('row')).toHaveLength(6);
      expect(asked).toEqual(['offset=0&limit=5']);
      await user.click(screen.getByRole('button', { name: 'Next page' }));
      // no flicker: the page shown stays until the next one is there, never an empty 'Loading…' table
      expect(screen.getAllByRole('row').length).toBeGreaterThan(1);
      expect(document.querySelector('.frp-table__empty')).toBeNull();
      await waitFor(() => expect(range()).toBe(`6-${Math.min(10, all.length)} of ${all.length}`));
      // State sorts by its words, descending on the second click, over all packages, not the page shown
      // (the table stays on its page 2)
      const state = screen.getByRole('columnheader', { name: /State/ });
      await user.click(within(state).getByRole('button'));
      await user.click(within(state).getByRole('button'));
      await waitFor(() => expect(asked.at(-1)).toBe('offset=5&limit=5&sort=status&order=desc'));
      const byState = sortRows(all, { columnId: 'status', direction: 'descending' }, (p, by) =>
        PACKAGE_LIST.sorts[by as 'status'](p),
      );
      const expected = byState.slice(5, 10).map((p) => PACKAGE_LIST.sorts.status(p));
      const shownStates = () =>
        screen
          .getAllByRole('row')
          .slice(1)
          .map((r) => within(r).getAllByRole('cell').at(-1)?.textContent ?? '');
      await waitFor(() => expect(shownStates()).toEqual(expected));
      // searched by name, resource name and note (spec §5), case-insensitively, back on page 1
      fill(screen.getByLabelText('Search'), 'NIGHTLY');
      const found = filterRows(all, 'NIGHTLY', PACKAGE_LIST.search);
      expect(found.length).toBeGreaterThan(0);
      expect(found.length).toBeLessThan(all.length);
      await waitFor(() =>
        expect(asked.at(-1)).toBe('offset=0&limit=5&search=NIGHTLY&sort=status&order=desc'),
      );
      await waitFor(() => expect(range()).toBe(`1-${Math.min(5, found.length)} of ${found.length}`));
    } finally {
      server.events.removeListener('request:start', onRequest);
    }
  });

  it('keeps a package selected on an earlier page: the delete dialog names both with their states', async () => {
    const all = await storedPackages();
    const { user } = renderApp('/admin/packages', { as: 'u-admin' });
    await waitFor(() => expect(range()).toBe(`1-5 of ${all.length}`));
    const nameIn = (row: number) =>
      within(screen.getAllByRole('row')[row]!).getAllByRole('cell')[1]?.firstChild?.textContent ?? '';
    const first = nameIn(1);
    await user.click(screen.getByText(first));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(range()).toBe(`6-${Math.min(10, all.length)} of ${all.length}`));
    // the range can show the next page before its rows arrive: wait for the rows themselves
    await waitFor(() => expect(nameIn(1)).not.toBe(first));
    const second = nameIn(1);
    await user.click(screen.getByText(second));
    expect(deleteButton()).toHaveTextContent('(2)');
    const dialog = await openConfirm(user);
    expect(within(dialog).getByText(first)).toBeInTheDocument();
    expect(within(dialog).getByText(second)).toBeInTheDocument();
  });

  it('asks before deleting packages: the dialog lists each selected one with its state; Cancel deletes nothing', async () => {
    countDeletes();
    const { user } = renderApp('/admin/packages', { as: 'u-admin' });
    await user.click(await screen.findByText('IP-3.2.1 nightly'));
    await user.click(screen.getByText('VC-1.7.2 release'));
    const before = (await storedPackages()).length;
    const dialog = await openConfirm(user);
    expect(dialog).toHaveAccessibleName('Delete 2 selected packages?');
    expect(dialog).toHaveTextContent('Deletion cannot be undone.');
    const items = within(within(dialog).getByRole('list', { name: 'Selected packages' })).getAllByRole(
      'listitem',
    );
    expect(items.map((i) => i.textContent)).toEqual(['IP-3.2.1 nightlyDraft', 'VC-1.7.2 releaseSigned']);
    // the focus is in the dialog, on the safe choice
    expect(within(dialog).getByRole('button', { name: MSG.cancel })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: MSG.cancel }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deletes).toEqual([]);
    expect(await storedPackages()).toHaveLength(before);
    // the selection stays for another try
    expect(deleteButton()).toHaveTextContent('(2)');
    // Escape closes it too, and deletes nothing
    await openConfirm(user);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deletes).toEqual([]);
    server.events.removeAllListeners();
  });

  it('shows a generation with its progress in the State column and refreshes itself until it ends, keeping the selection (decision 178)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const base = structuredClone(PACKAGE_FIXTURES.find((p) => p.id === 'pk-approve-dev')!);
      const gen = await generating(base);
      const { user } = renderApp('/admin/packages', { as: 'u-admin' });
      fill(await screen.findByLabelText('Search'), 'IP-3.2.1 bench');
      await screen.findByText(base.name);
      const stateCell = () =>
        within(screen.getByText(base.name).closest('tr') as HTMLElement)
          .getAllByRole('cell')
          .at(-1);
      expect(stateCell()).toHaveTextContent('Generating… 0.0 MiB of 4.0 MiB');
      await user.click(screen.getByText(base.name));
      expect(deleteButton()).toHaveTextContent('(1)');
      // the worker finishes the XML; the list's next refresh shows the package ready
      await gen.finish();
      await act(() => vi.advanceTimersByTimeAsync(REFRESH_MS));
      await waitFor(() => expect(stateCell()?.textContent).toBe('Approved'));
      expect(deleteButton()).toHaveTextContent('(1)');
      expect(screen.getByLabelText('Search')).toHaveValue('IP-3.2.1 bench');
    } finally {
      vi.useRealTimers();
    }
  });

  it('lists selected DCCs with device id and telemetry type and deletes them only on Delete', async () => {
    countDeletes();
    const { user } = renderApp('/admin/dcc', { as: 'u-admin' });
    // VENT-220: no package uses it (the server refuses deleting IP-4000, which packages use)
    await user.click(await screen.findByText('VENT-220'));
    const dialog = await openConfirm(user);
    expect(dialog).toHaveAccessibleName('Delete 1 selected DCC?');
    expect(within(dialog).getByRole('listitem')).toHaveTextContent('VENT-220Telemetry type: TelB');
    expect(deletes).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveTextContent(MSG.deleted));
    expect(deletes).toEqual(['/dev/admin/dcc']);
    expect((await memoryBackend().dccs.list()).some((d) => d.deviceId === 'VENT-220')).toBe(false);
    server.events.removeAllListeners();
  });

  it('marks a package whose workflow mail failed every retry, naming the recipient', async () => {
    await replacePackage({
      ...PACKAGE_FIXTURES.find((p) => p.id === 'pk-approve-dev')!,
      mailFailures: [
        {
          to: 'reliability-engineer@example.com',
          subject: 'Approval requested: package IP-3.2.1 bench build',
          reason: 'MessageRejected: Email address is not verified.',
          at: '2024-05-01T08:05:00.000Z',
        },
      ],
    });
    renderApp('/admin/packages', { as: 'u-admin' });
    const fixture = await screen.findByText('IP-3.2.1 bench build');
    const badge = within(fixture.closest('tr') as HTMLElement).getByText('Mail not delivered');
    expect(badge.getAttribute('title')).toMatch(/reliability.*Approval requested.*not verified/);
    expect(
      within(screen.getByText('IP-3.2.1 nightly').closest('tr') as HTMLElement).queryByText(
        'Mail not delivered',
      ),
    ).toBeNull();
  });

  it('lists DCCs and searches them by limits and telemetry type', async () => {
    renderApp('/admin/dcc', { as: 'u-admin' });
    expect(await screen.findByText('IP-4000')).toBeInTheDocument();
    expect(await headers()).toEqual(['Device ID', 'Telemetry type', 'Device limit', 'Message limit']);
    fill(screen.getByLabelText('Search'), 'ble');
    await waitFor(() => expect(range()).toBe('1-1 of 1'));
    fill(screen.getByLabelText('Search'), '4096');
    expect(await screen.findByText('IP-4000')).toBeInTheDocument();
    await waitFor(() => expect(range()).toBe('1-1 of 1'));
  });

  it('writes the DCC limits with their unit, as the engineers’ DCC list does', async () => {
    renderApp('/admin/dcc', { as: 'u-admin' });
    const row = (await screen.findByText('IP-4000')).closest('tr') as HTMLElement;
    expect(within(row).getByText('4,096 B')).toBeInTheDocument();
  });

  it('lists the accounts that wait for an admin first, so none sits on a later page', async () => {
    renderApp('/admin/users', { as: 'u-admin' });
    await screen.findByText('Dana Dev');
    const firstRow = screen.getAllByRole('row')[1] as HTMLElement;
    expect(firstRow).toHaveTextContent(/Requested: /);
  });

  it('a disabled Refuse looks disabled: no selection, no decision', async () => {
    renderApp('/admin/users', { as: 'u-admin' });
    await screen.findByText('Dana Dev');
    const refuse = screen.getByRole('button', { name: /^Refuse/ });
    expect(refuse).toBeDisabled();
    expect(refuse.className).toContain('amplify-button--disabled');
  });

  it('lists users with their role labels and the note about registering again', async () => {
    renderApp('/admin/users', { as: 'u-admin' });
    expect(await screen.findByText('Dana Dev')).toBeInTheDocument();
    expect(await headers()).toEqual(['User name', 'User email', 'User role', 'Role status', 'Sign-in']);
    expect(screen.getByText('Design Engineer (dev)')).toBeInTheDocument();
    expect(screen.getByText(MSG.adminReRegisterNote)).toBeInTheDocument();
  });

  it('shows each role status; a signed grant proposes, says so per user and shows the proposal', async () => {
    let sent: unknown;
    const { user } = renderApp('/admin/users', { as: 'u-admin' });
    fill(await screen.findByLabelText('Search'), 'Pat');
    expect(await screen.findByText('Requested: Reliability Engineer')).toBeInTheDocument();
    const grant = screen.getByRole('button', { name: /^Grant/ });
    expect(grant).toBeDisabled();
    expect(screen.getByRole('button', { name: /^Refuse/ })).toBeDisabled();
    server.events.on('request:start', async ({ request }) => {
      if (request.url.endsWith('/admin/users/roles')) sent = await request.clone().json();
    });
    await user.click(screen.getByText('Pat Pending'));
    expect(grant).toHaveTextContent('Grant (1)');
    await user.click(grant);
    // the package decisions' signature dialog: who, what it does, its meaning, the password
    const dialog = await screen.findByRole('dialog', { name: 'Sign: Grant roles' });
    expect(dialog).toHaveTextContent(
      'Reliability Engineer: proposes the grant: a second admin must confirm it',
    );
    expect(dialog).toHaveTextContent(ROLE_GRANT_MEANINGS.proposeRole);
    expect(dialog).toHaveTextContent('Ada Admin, Admin');
    fill(within(dialog).getByLabelText(/^Your password/), 'not-it');
    await user.click(within(dialog).getByRole('button', { name: 'Grant' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(SIGNATURE_PASSWORD_WRONG);
    fill(within(dialog).getByLabelText(/^Your password/), MOCK_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Grant' }));
    expect(await screen.findByRole('dialog', { name: 'Success' })).toHaveTextContent(API_ERR.rolesDecided);
    // the role the list showed goes with the decision, so a request changed since is not granted
    expect(sent).toEqual({
      grant: ['u-pending'],
      roles: { 'u-pending': 'RELIABILITY_ENGINEER' },
      password: MOCK_PASSWORD,
    });
    const pending = await memoryBackend().users.getById('u-pending');
    expect(pending?.roleStatus).toBe('REQUESTED');
    expect(pending?.roleProposal?.proposedById).toBe('u-admin');
    await user.click(screen.getByRole('button', { name: MSG.close }));
    expect(
      within(screen.getByRole('region', { name: 'What your last decision did' })).getByRole('listitem'),
    ).toHaveTextContent(
      'Pat Pending (pat.pending@example.org): Proposed: waits for a second admin to confirm it',
    );
    fill(screen.getByLabelText('Search'), 'Pat');
    expect(await screen.findByText('Grant proposed by you; waits for a second admin')).toBeInTheDocument();
  });

  it("confirms another admin's proposal: the role is granted", async () => {
    const at = new Date().toISOString();
    await changeUser('u-pending', {
      roleProposal: {
        role: 'RELIABILITY_ENGINEER',
        proposedById: 'u-admin-2',
        proposedByName: 'Abe Admin',
        proposedByEmail: 'admin-2@example.com',
        proposedAt: at,
      },
    });
    const { user } = renderApp('/admin/users', { as: 'u-admin' });
    fill(await screen.findByLabelText('Search'), 'Pat');
    expect(
      await screen.findByText('Grant proposed by Abe Admin (admin-2@example.com); waits for a second admin'),
    ).toBeInTheDocument();
    await user.click(screen.getByText('Pat Pending'));
    await user.click(screen.getByRole('button', { name: /^Grant/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign: Grant roles' });
    expect(dialog).toHaveTextContent('confirms the proposal of Abe Admin: the role takes effect');
    expect(dialog).toHaveTextContent(ROLE_GRANT_MEANINGS.confirmRole);
    fill(within(dialog).getByLabelText(/^Your password/), MOCK_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Grant' }));
    expect(await screen.findByRole('dialog', { name: 'Success' })).toHaveTextContent(API_ERR.rolesDecided);
    expect((await memoryBackend().users.getById('u-pending'))?.roleStatus).toBe('GRANTED');
    await user.click(screen.getByRole('button', { name: MSG.close }));
    expect(screen.getByRole('region', { name: 'What your last decision did' })).toHaveTextContent(
      'Granted: the role is in effect',
    );
  });

  it("refuses the selected requests and shows the server's reason when a decision is refused", async () => {
    const { user } = renderApp('/admin/users', { as: 'u-admin' });
    fill(await screen.findByLabelText('Search'), 'Pat');
    await user.click(await screen.findByText('Pat Pending'));
    await user.click(screen.getByRole('button', { name: /^Refuse/ }));
    // a signature with a reason (decision 357): nothing is refused until both are given
    const sign = await screen.findByRole('dialog', { name: 'Sign: Refuse or revoke roles' });
    expect(sign).toHaveTextContent('refuses the requested role now');
    expect(sign).toHaveTextContent(GOVERNANCE_MEANINGS.refuseRole);
    const act = within(sign).getByRole('button', { name: 'Sign and refuse' });
    fill(within(sign).getByLabelText(/^Your password/), MOCK_PASSWORD);
    expect(act).toBeDisabled();
    fill(within(sign).getByLabelText(/^Reason for refusing or revoking/), 'Not on the release team');
    fill(within(sign).getByLabelText(/^Your password/), 'not-it');
    await user.click(act);
    expect(await within(sign).findByRole('alert')).toHaveTextContent(SIGNATURE_PASSWORD_WRONG);
    expect((await memoryBackend().users.getById('u-pending'))?.roleStatus).toBe('REQUESTED');
    fill(within(sign).getByLabelText(/^Your password/), MOCK_PASSWORD);
    await user.click(act);
    expect(await screen.findByRole('dialog', { name: 'Success' })).toHaveTextContent(API_ERR.rolesDecided);
    expect((await memoryBackend().users.getById('u-pending'))?.roleStatus).toBe('REFUSED');
    await user.click(screen.getByRole('button', { name: MSG.close }));
    fill(await screen.findByLabelText('Search'), 'Ada');
    await user.click(await screen.findByText('Ada Admin'));
    await user.click(screen.getByRole('button', { name: /^Grant/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign: Grant roles' });
    fill(within(dialog).getByLabelText(/^Your password/), MOCK_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Grant' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(API_ERR.ownRoleUndecidable);
  });

  it("titles the resources list 'Select resource' with sortable Resource name, Type, Stage and Uploaded By", async () => {
    const { user } = renderApp('/admin/resources', { as: 'u-admin' });
    expect(await screen.findByRole('heading', { name: MSG.selectResource })).toBeInTheDocument();
    expect(await headers()).toEqual(['Resource name', 'Type', 'Stage', 'Uploaded By']);
    const stage = screen.getByRole('columnheader', { name: /Stage/ });
    await user.click(within(stage).getByRole('button'));
    expect(stage).toHaveAttribute('aria-sort', 'ascending');
  });

  it('searches resources by type or stage and returns to page 1', async () => {
    const { user } = renderApp('/admin/resources', { as: 'u-admin' });
    await screen.findByRole('heading', { name: MSG.selectResource });
    await screen.findByText('infusion-pump-fw-3.2.1');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    fill(screen.getByLabelText('Search'), 'model');
    await waitFor(() => expect(range()).toBe('1-3 of 3'));
    fill(screen.getByLabelText('Search'), 'RELEASE');
    await waitFor(() => expect(range()).toBe('1-3 of 3'));
  });

  it('reads the DCC, user and resource lists one page at a time: search, sort and page go to the server (decision 221)', async () => {
    const asked: URLSearchParams[] = [];
    const onRequest = ({ request }: { request: Request }) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith('/dev/admin/resources')) asked.push(url.searchParams);
    };
    server.events.on('request:start', onRequest);
    try {
      const { user } = renderApp('/admin/resources', { as: 'u-admin' });
      await screen.findByText('infusion-pump-fw-3.2.1');
      const total = RESOURCES.length;
      expect(total).toBeGreaterThan(5);
      await waitFor(() => expect(range()).toBe(`1-5 of ${total}`));
      // a header row and the page's five rows: no more rows than the page came to the browser
      expect(screen.getAllByRole('row')).toHaveLength(6);
      expect(asked[0]?.toString()).toBe('offset=0&limit=5');
      await user.click(screen.getByRole('button', { name: 'Next page' }));
      await waitFor(() => expect(range()).toBe(`6-${Math.min(10, total)} of ${total}`));
      await user.click(screen.getByRole('button', { name: /^Resource name/ }));
      await user.click(screen.getByRole('button', { name: /^Resource name/ }));
      fill(screen.getByLabelText('Search'), 'Patch');
      await waitFor(() =>
        expect(asked.at(-1)?.toString()).toBe('offset=0&limit=5&search=Patch&sort=name&order=desc'),
      );
      const patches = filterRows(RESOURCES, 'Patch', ADMIN_RESOURCE_LIST.search);
      expect(patches.length).toBeGreaterThan(0);
      expect(patches.length).toBeLessThan(total);
      await waitFor(() => expect(range()).toBe(`1-${Math.min(5, patches.length)} of ${patches.length}`));
      const first = [...patches].sort((a, b) => compareValues(b.name, a.name))[0];
      expect(within(screen.getAllByRole('row')[1]!).getByText(first?.name ?? '')).toBeInTheDocument();
    } finally {
      server.events.removeListener('request:start', onRequest);
    }
  });

  it('keeps a selection made on an earlier page: the delete dialog names every selected row', async () => {
    const { user } = renderApp('/admin/resources', { as: 'u-admin' });
    await screen.findByText('infusion-pump-fw-3.2.1');
    await user.click(screen.getByText('infusion-pump-fw-3.2.1'));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    const second = RESOURCES[5];
    await user.click(await screen.findByText(second?.name ?? ''));
    expect(deleteButton()).toHaveTextContent('(2)');
    const dialog = await openConfirm(user);
    expect(within(dialog).getByText('infusion-pump-fw-3.2.1')).toBeInTheDocument();
    expect(within(dialog).getByText(second?.name ?? '')).toBeInTheDocument();
  });

  it('needs at least one selection to delete', async () => {
    const { user } = renderApp('/admin/users', { as: 'u-admin' });
    await screen.findByText('Dana Dev');
    expect(deleteButton()).toBeDisabled();
    await user.click(screen.getByText('Dana Dev'));
    // the role request waits first: Pat Pending heads page 1
    await user.click(screen.getByText('Tess Tester'));
    expect(deleteButton()).toBeEnabled();
    expect(deleteButton()).toHaveTextContent('(2)');
  });

  it("deletes the selected rows with their ids and shows 'Deleted successfully.' whose Close returns to /admin", async () => {
    let ids: unknown;
    server.use(
      http.delete('/dev/admin/users', async ({ request }) => {
        ids = await request.json();
        return HttpResponse.json({ status: 'DELETED' });
      }),
    );
    const { user, router } = renderApp('/admin/users', { as: 'u-admin' });
    await user.click(await screen.findByText('Dana Dev'));
    await user.click(screen.getByText('Tess Tester'));
    const confirm = await openConfirm(user);
    // each user with role and role status
    expect(
      within(confirm)
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    ).toEqual([
      'Dana Dev (design-engineer-dev@example.com)Design Engineer (dev) · Granted',
      'Tess Tester (design-engineer-test@example.com)Design Engineer (test) · Granted',
    ]);
    expect(ids).toBeUndefined();
    // deleting an account is a signature with a reason (decision 357)
    expect(confirm).toHaveTextContent(GOVERNANCE_MEANINGS.deleteAccount);
    fill(within(confirm).getByLabelText(/^Reason for the deletion/), 'Left the company');
    fill(within(confirm).getByLabelText(/^Your password/), MOCK_PASSWORD);
    await user.click(within(confirm).getByRole('button', { name: 'Sign and delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Success' });
    expect(dialog).toHaveTextContent(MSG.deleted);
    expect(ids).toEqual({ ids: ['u-dev', 'u-test'], password: MOCK_PASSWORD, reason: 'Left the company' });
    await user.click(within(dialog).getByRole('button', { name: MSG.close }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
  });

  it('shows why something referenced cannot be deleted (409)', async () => {
    const { user } = renderApp('/admin/resources', { as: 'u-admin' });
    await user.click(await screen.findByText('infusion-pump-fw-3.2.1'));
    const confirm = await openConfirm(user);
    expect(within(confirm).getByRole('listitem')).toHaveTextContent(/^infusion-pump-fw-3\.2\.1Patch · Dev$/);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(
      // the server's refusal names the resource and the packages using it
      "'infusion-pump-fw-3.2.1' is used by 'IP-3.2.1 nightly'",
    );
    expect(await memoryBackend().resources.listAll()).toHaveLength(12);
  });

  it('shows the generic error popup when a list fails to load', async () => {
    server.use(
      http.get('/dev/admin/dcc', () => HttpResponse.json({ errorMessage: 'table missing' }, { status: 500 })),
    );
    renderApp('/admin/dcc', { as: 'u-admin' });
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(
      `${MSG.internalErrorPrefix}table missing`,
    );
  });
});

describe('admin home: what waits for administrators', () => {
  it('counts role requests, proposals to confirm and own proposals, with a link to the users list', async () => {
    const at = new Date().toISOString();
    await putUser({
      id: 'u-proposed',
      name: 'Quinn Proposed',
      email: 'quinn@example.org',
      userRole: 'TECHNICAL_LEADER',
      roleStatus: 'REQUESTED',
      requestedRole: 'TECHNICAL_LEADER',
      roleProposal: {
        role: 'TECHNICAL_LEADER',
        proposedBy: { id: 'u-admin-2', name: 'Abe Admin', email: 'admin-2@example.com' },
        proposedAt: at,
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    const { user } = renderApp('/admin', { as: 'u-admin' });
    const region = await screen.findByRole('region', { name: /^Waiting for administrators/ });
    await waitFor(() => expect(region).toHaveAttribute('aria-busy', 'false'));
    // the count in the heading, a sentence, then each kind with its count and every waiting account
    expect(within(region).getByRole('heading', { level: 2 })).toHaveTextContent(
      'Waiting for administrators2',
    );
    expect(region).toHaveTextContent(
      '2 decisions wait for you: 1 role request and 1 grant proposal to confirm.',
    );
    const groups = within(region)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(groups).toEqual([
      'Grant proposals to confirm 1',
      'Role requests 1',
      'Your proposals, waiting for a second admin 0',
    ]);
    const confirm = within(region).getByRole('region', { name: /^Grant proposals to confirm/ });
    expect(within(confirm).getByRole('link')).toHaveAccessibleName(
      'Confirm or refuse: Quinn Proposed (quinn@example.org), Abe Admin proposed Technical Leader',
    );
    const requests = within(region).getByRole('region', { name: /^Role requests/ });
    expect(within(requests).getByRole('link')).toHaveAttribute('href', '/admin/users');
    expect(within(requests).getByRole('link')).toHaveTextContent(/asks for /);
    expect(region).toHaveTextContent('None of your grant proposals waits for a second admin.');
    await user.click(within(region).getByRole('link', { name: 'Open the users list to decide' }));
    expect(await screen.findByRole('heading', { name: 'Select user' })).toBeInTheDocument();
  });
});
