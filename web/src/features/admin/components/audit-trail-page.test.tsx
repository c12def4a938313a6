import type { AuditEvent } from '@shared/domain/audit-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryBackend, putUser } from '@/testing/backend/server';
import { SAMPLE_USERS } from '@/testing/mocks/sample-answers';
import { fill, renderApp } from '@/testing/render-app';

/** The audit trail screen over the real handlers and the memory audit log (decisions 346–348). */

const ev = (subject: string, actor: 'u-auditee' | 'u-admin', action: string, n: number): AuditEvent => ({
  subject,
  action,
  meaning: `${action.toLowerCase()} number ${n}`,
  actorId: actor,
  actorName: actor === 'u-auditee' ? 'Audra Auditee' : 'Ada Admin',
  actorRole: actor === 'u-auditee' ? 'RELIABILITY_ENGINEER' : 'ADMIN',
  details: { n },
});
const PKG = 'PKG#pk-audit';
const ME = 'USER#u-auditee';

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const firstCells = () => bodyRows().map((r) => within(r).getAllByRole('cell')[2]?.textContent);

beforeEach(async () => {
  localStorage.clear();
  const someone = SAMPLE_USERS.find((u) => u.id === 'u-dev');
  if (!someone) throw new Error('no sample user u-dev');
  await putUser({
    ...someone,
    id: 'u-auditee',
    name: 'Audra Auditee',
    email: 'audra@example.com',
    userRole: 'RELIABILITY_ENGINEER',
  });
  const audit = memoryBackend().audit;
  // 30 events by the admin on one package, then 3 by Audra on her account (the newest of the trail)
  for (let i = 1; i <= 30; i++) audit.record([ev(PKG, 'u-admin', 'HEADER_EDITED', i)]);
  for (let i = 1; i <= 3; i++) audit.record([ev(ME, 'u-auditee', 'PASSWORD_CHANGED', i)]);
});

/** Applies a subject filter as a person types it. */
async function showSubject(user: { click: (el: Element) => Promise<void> }, subject: string) {
  fill(screen.getByLabelText('Subject'), subject);
  await user.click(screen.getByRole('button', { name: 'Apply filter' }));
}
afterEach(() => vi.restoreAllMocks());

describe('the audit trail screen', () => {
  it('is an AUDIT entry beside the spec’s four admin entries', async () => {
    renderApp('/admin', { as: 'u-admin' });
    const nav = await screen.findByRole('navigation', { name: 'Administration' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['PACKAGES', 'DCC', 'USERS', 'RESOURCES', 'AUDIT']);
  });

  it('shows 25 rows a page, newest first, pages Older and Newer, and remembers 50 rows a page', async () => {
    const { user, unmount } = renderApp('/admin/audit', { as: 'u-admin' });
    await waitFor(() => expect(bodyRows()).toHaveLength(25));
    expect(screen.getByText('Page 1')).toBeInTheDocument();
    const first = bodyRows()[0] as HTMLElement;
    expect(within(first).getByText('Audra Auditee')).toBeInTheDocument();
    expect(within(first).getByText('password_changed number 3')).toBeInTheDocument();
    expect(within(first).getByText('chain intact')).toBeInTheDocument();
    await showSubject(user, PKG);
    await waitFor(() =>
      expect(within(bodyRows()[0] as HTMLElement).getByText('header_edited number 30')).toBeInTheDocument(),
    );
    expect(bodyRows()).toHaveLength(25);
    await user.click(screen.getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(screen.getByText(/^Page 2/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Older' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Newer' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(25));

    await user.selectOptions(screen.getByLabelText('Rows per page'), '50');
    await waitFor(() => expect(bodyRows()).toHaveLength(30));
    unmount();
    const again = renderApp('/admin/audit', { as: 'u-admin' });
    await waitFor(() => expect(bodyRows().length).toBeGreaterThan(25));
    await showSubject(again.user, PKG);
    await waitFor(() => expect(bodyRows()).toHaveLength(30));
    expect(screen.getByLabelText('Rows per page')).toHaveValue('50');
  });

  it('filters by who and by date on the server, and a subject link shows that subject’s events', async () => {
    const { user } = renderApp('/admin/audit', { as: 'u-admin' });
    await waitFor(() => expect(bodyRows()).toHaveLength(25));
    const who = screen.getByLabelText('Who');
    await waitFor(() =>
      expect(within(who).getByRole('option', { name: /Audra Auditee/ })).toBeInTheDocument(),
    );
    await user.selectOptions(who, 'u-auditee');
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(firstCells().every((a) => a === 'PASSWORD_CHANGED')).toBe(true);

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    fill(screen.getByLabelText('From (UTC)'), tomorrow);
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    expect(await screen.findByText('No event matches this filter.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(25));
    await user.click(within(bodyRows()[0] as HTMLElement).getByRole('button', { name: ME }));
    await waitFor(() => expect(bodyRows().length).toBeLessThan(25));
    expect(screen.getByLabelText('Subject')).toHaveValue(ME);
    const mine = (await memoryBackend().audit.history(ME)).events.length;
    expect(bodyRows()).toHaveLength(mine);
  });

  it('shows the server’s reason for a bad filter', async () => {
    const { user } = renderApp('/admin/audit', { as: 'u-admin' });
    await waitFor(() => expect(bodyRows()).toHaveLength(25));
    fill(screen.getByLabelText('From (UTC)'), '2026-02-02');
    fill(screen.getByLabelText('To (UTC)'), '2026-01-01');
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("The 'from' date is after the 'to' date");
  });

  it('exports the filtered view as CSV and records the export in the trail', async () => {
    const created = vi.fn((_b: Blob) => 'blob:audit');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = renderApp('/admin/audit', { as: 'u-admin' });
    await waitFor(() => expect(bodyRows()).toHaveLength(25));
    await waitFor(() =>
      expect(within(screen.getByLabelText('Who')).getByRole('option', { name: /Audra/ })).toBeInTheDocument(),
    );
    await user.selectOptions(screen.getByLabelText('Who'), 'u-auditee');
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText(/\.csv: 3 events, digest [0-9a-f]{64}/)).toHaveTextContent(
      /is recorded in the audit trail/,
    );
    expect(click).toHaveBeenCalled();
    const blob = created.mock.calls[0]?.[0];
    expect(blob).toBeInstanceOf(Blob);
    const csv = await (blob as Blob).text();
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(4);
    expect(csv).toContain(
      `${ME},3,u-auditee,Audra Auditee,RELIABILITY_ENGINEER,PASSWORD_CHANGED,password_changed number 3`,
    );
    const exports = (await memoryBackend().audit.history('USER#u-admin')).events;
    expect(exports.at(-1)).toMatchObject({ action: 'AUDIT_EXPORTED', details: { format: 'CSV', events: 3 } });
  });

  it('is not open to a non-admin', async () => {
    renderApp('/admin/audit', { as: 'u-dev' });
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Audit trail' })).not.toBeInTheDocument(),
    );
    expect(screen.queryByRole('link', { name: 'AUDIT' })).not.toBeInTheDocument();
  });
});
