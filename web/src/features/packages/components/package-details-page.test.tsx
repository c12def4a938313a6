import { MSG } from '@shared/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '@/lib/session/session-store';
import { server } from '@/testing/backend/server';
import { atPath, captureDownloads, openWith } from '../testing/package-test-utils';

afterEach(() => {
  vi.restoreAllMocks();
});

const button = (name: string) => screen.queryByRole('button', { name });
const fields = () => screen.getByLabelText('Package details');

describe('package detail pages (spec §2.9)', () => {
  it('shows Initiator, Package name, Resource name, Upload time, SIGN/NO SIGN and Note; Cancel, Reject, Continue', async () => {
    const { router } = openWith('/packages/approve/view', {
      as: 'u-lead',
      pkg: 'pk-approve-dev',
      flow: 'approve',
      subHeader: MSG.approveDevPackageTitle,
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: MSG.approveDevPackageTitle }),
    ).toBeInTheDocument();
    const dl = fields();
    const expected: [string, string][] = [
      [MSG.initiator, 'Dana Dev'],
      [MSG.colPackageName, 'IP-3.2.1 bench build'],
      [MSG.resourceName, 'infusion-pump-fw-3.2.1.zip'],
      [MSG.uploadTime, '2024-03-04 09:12:44'],
      ['Signing', MSG.noSignIndicator],
      [MSG.colNote, 'Bench build for the pressure sensor fix'],
    ];
    for (const [label, value] of expected)
      expect(within(dl).getByText(label).nextElementSibling).toHaveTextContent(value);
    expect(button(MSG.cancel)).toBeInTheDocument();
    expect(button(MSG.reject)).toBeInTheDocument();
    fireEvent.click(button(MSG.continue) as HTMLElement);
    await atPath(router, '/packages/header/view');
    expect(await screen.findByRole('button', { name: MSG.approve })).toBeInTheDocument();
    expect(button(MSG.reject)).toBeInTheDocument();
    fireEvent.click(button(MSG.back) as HTMLElement);
    await atPath(router, '/packages/approve/view');
  });

  it('shows SIGN for a signed package and marks who approved', async () => {
    openWith('/packages/approve/view', { as: 'u-lead', pkg: 'pk-approve-rel', flow: 'approve' });
    expect(await screen.findByText(MSG.signIndicator)).toBeInTheDocument();
    const approvers = screen.getByRole('list', { name: 'Approvers' });
    expect(within(approvers).getAllByRole('img', { name: 'Approved' })).toHaveLength(2);
    expect(within(approvers).getAllByRole('img', { name: 'Not decided yet' })).toHaveLength(2);
    expect(within(approvers).getByText('(you)')).toBeInTheDocument();
  });

  it('delivers from the release page: Deliver, the header with Continue and no Reject, then delivery approvers', async () => {
    const { router } = openWith('/packages/release/view', {
      as: 'u-sw',
      pkg: 'p-3',
      flow: 'release',
      subHeader: MSG.packageGenerated,
    });
    expect(await screen.findByRole('button', { name: MSG.download })).toBeInTheDocument();
    expect(button(MSG.reject)).not.toBeInTheDocument();
    fireEvent.click(button(MSG.deliver) as HTMLElement);
    await atPath(router, '/packages/header/view');
    expect(session.get().flowPurpose).toBe('delivery');
    await screen.findByRole('table', { name: 'Package header' });
    fireEvent.click(screen.getByRole('button', { name: MSG.continue }));
    expect(button(MSG.reject)).not.toBeInTheDocument();
    await atPath(router, '/packages/notify-approvers');
    expect(await screen.findByLabelText('Technical Leader')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(MSG.generateDeliveryPackageTitle);
    expect(screen.getByRole('heading', { name: 'Delivery approvers' })).toBeInTheDocument();
  });

  it('offers Deliver only to a release engineer', async () => {
    openWith('/packages/release/view', { as: 'u-lead', pkg: 'p-3', flow: 'release' });
    expect(await screen.findByText('Delivery is started by a SW/FW Release Engineer.')).toBeInTheDocument();
    expect(button(MSG.deliver)).not.toBeInTheDocument();
  });

  it('offers no Deliver for an unsigned release package, even to a release engineer: devices refuse it (decision 193)', async () => {
    openWith('/packages/release/view', { as: 'u-sw', pkg: 'p-4', flow: 'release' });
    expect(await screen.findByText(MSG.unsignedNotDelivered)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: MSG.download })).toBeInTheDocument();
    expect(button(MSG.deliver)).not.toBeInTheDocument();
    expect(button(MSG.reDeliver)).not.toBeInTheDocument();
  });

  it("lists a rejected delivery's approvers with their marks, the rejection note, and Re-deliver", async () => {
    const { router } = openWith('/packages/rejected/view', {
      as: 'u-sw',
      pkg: 'pk-deliv-rejected',
      flow: 'delivery',
      subHeader: 'REJECTED',
    });
    const list = await screen.findByRole('list', { name: 'Delivery approvers' });
    expect(within(list).getByRole('img', { name: 'Approved' })).toBeInTheDocument();
    expect(within(list).getByRole('img', { name: 'Rejected' })).toBeInTheDocument();
    expect(within(list).getByText(/Serial number range does not match/)).toBeInTheDocument();
    expect(screen.getByText('Rejection note')).toBeInTheDocument();
    expect(button(MSG.reject)).not.toBeInTheDocument();
    fireEvent.click(button(MSG.reDeliver) as HTMLElement);
    await atPath(router, '/packages/header/view');
    expect(await screen.findByRole('button', { name: MSG.continue })).toBeInTheDocument();
  });

  it('lists each delivery approver with an approved mark while delivery is pending', async () => {
    openWith('/packages/approval-pending/view', {
      as: 'u-dev',
      pkg: 'pk-deliv-pending',
      flow: 'delivery',
      subHeader: 'PACKAGE APPROVAL PENDING',
    });
    const list = await screen.findByRole('list', { name: 'Delivery approvers' });
    expect(within(list).getAllByRole('img', { name: 'Approved' })).toHaveLength(2);
    expect(within(list).getAllByRole('img', { name: 'Not decided yet' })).toHaveLength(2);
    expect(button(MSG.reject)).not.toBeInTheDocument();
  });

  it('shows the approval record: who, role, when, decision and note', async () => {
    openWith('/packages/dev/view', { as: 'u-dev', pkg: 'pk-rejected-dev', flow: 'dev' });
    const record = await screen.findByRole('table', { name: 'Approval record, newest first' });
    const rejected = (await within(record).findByText('Rejected')).closest('tr') as HTMLElement;
    expect(rejected).toHaveTextContent('Terry Lead');
    expect(rejected).toHaveTextContent('Technical Leader');
    expect(rejected).toHaveTextContent('Reason: Header destination points at the bootloader');
    expect(rejected).toHaveTextContent(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    expect(screen.getByText('The package was rejected; no package file was generated.')).toBeInTheDocument();
  });

  it('warns loudly when the approval record fails its integrity check', async () => {
    server.use(
      http.get('/dev/packages/:id/history', () =>
        HttpResponse.json({ history: '[]', chainIntact: false, brokenAtSeq: 3 }),
      ),
    );
    openWith('/packages/dev/view', { as: 'u-dev', pkg: 'pk-rejected-dev', flow: 'dev' });
    expect(await screen.findByText('This approval record failed its integrity check')).toBeInTheDocument();
    expect(screen.getByText(/\(at event 3\)/)).toBeInTheDocument();
  });

  it('downloads a generated package as an XML file named after it', async () => {
    const saved = captureDownloads();
    openWith('/packages/release/view', { as: 'u-lead', pkg: 'pk-delivered', flow: 'delivery' });
    fireEvent.click(await screen.findByRole('button', { name: MSG.download }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('ArrhythmiaNet_2.2_rollout.xml');
    expect(await saved[0]?.blob.text()).toContain('name="ArrhythmiaNet 2.2 rollout"');
    expect(await screen.findByText('verified')).toBeInTheDocument();
  });

  it('lets the initiator continue editing a draft', async () => {
    const { router } = openWith('/packages/dev/view', { as: 'u-dev', pkg: 'p-1', flow: 'dev' });
    fireEvent.click(await screen.findByRole('button', { name: 'Continue editing' }));
    await atPath(router, '/packages/header');
  });

  it('shows mails that failed every retry to the initiator, not to other users', async () => {
    const undelivered = () => screen.queryByRole('list', { name: 'Undelivered mails' });
    const view = openWith('/packages/approval-pending/view', {
      as: 'u-dev',
      pkg: 'pk-approve-dev',
      flow: 'dev',
    });
    await screen.findByLabelText('Package details');
    expect(screen.getByText('Mail not delivered')).toBeInTheDocument();
    expect(within(undelivered() as HTMLElement).getByRole('listitem')).toHaveTextContent(
      /reliability.*Approval requested: package IP-3\.2\.1 bench build.*2024-05-01 08:05:00 UTC.*not verified/,
    );
    view.unmount();
    openWith('/packages/approval-pending/view', { as: 'u-lead', pkg: 'pk-approve-dev', flow: 'dev' });
    await screen.findByLabelText('Package details');
    expect(undelivered()).toBeNull();
    expect(screen.queryByText('Mail not delivered')).toBeNull();
  });
});
