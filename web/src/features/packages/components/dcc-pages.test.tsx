import { MSG } from '@shared/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { session } from '@/lib/session/session-store';
import { memoryBackend, storedPackage } from '@/testing/backend/server';
import { fill } from '@/testing/render-app';
import { atPath, openWith } from '../testing/package-test-utils';

const openList = () => openWith('/packages/dcc', { as: 'u-dev', pkg: 'p-1', flow: 'dev' });
const openCreate = () => openWith('/packages/dcc/create', { as: 'u-dev', pkg: 'p-1', flow: 'dev' });
const button = (name: string) => screen.getByRole('button', { name });

describe('DCC list (spec §2.8, §5)', () => {
  it('lists Device ID, Telemetry type, Device limit and Message limit, searchable', async () => {
    openList();
    const table = await screen.findByRole('table', { name: 'Device communication configurations' });
    expect(await screen.findByText('VENT-220')).toBeInTheDocument();
    expect([...table.querySelectorAll('thead th')].map((h) => h.textContent?.replace(/[▲▼↕]/g, ''))).toEqual([
      'Selected',
      MSG.colDeviceId,
      MSG.colTelemetryType,
      MSG.colDeviceLimit,
      MSG.colMessageLimit,
    ]);
    fill(screen.getByLabelText('Search'), 'ble');
    expect(await screen.findByText('GLU-BLE-2')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('VENT-220')).not.toBeInTheDocument());
    fill(screen.getByLabelText('Search'), '4096');
    expect(await screen.findByText('IP-4000')).toBeInTheDocument();
  });

  it("shows each DCC's id (what the pipeline's --dcc takes) beside its Device ID", async () => {
    openList();
    const name = await screen.findByText('VENT-220');
    const cell = name.closest('td') as HTMLElement;
    expect(within(cell).getByText('d-2')).toBeInTheDocument();
    expect(cell.textContent).toBe('VENT-220DCC id d-2');
    // every row carries its own id, none another's
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) expect(within(row).getByText(/^d-\d+$/)).toBeInTheDocument();
    expect(new Set(rows.map((r) => within(r).getByText(/^d-\d+$/).textContent)).size).toBe(rows.length);
  });

  it('requires one selected DCC, then attaches it and goes to notify approvers', async () => {
    const { router } = openList();
    fireEvent.click(await screen.findByText('VENT-220'));
    expect(button(MSG.continue)).toBeEnabled();
    // the radio clicked again clears the choice
    fireEvent.click(screen.getByRole('radio', { name: 'Select VENT-220' }));
    expect(button(MSG.continue)).toBeDisabled();
    expect(screen.getByText('Select one DCC to attach to the package.')).toBeInTheDocument();
    fireEvent.click(screen.getByText('IP-4000'));
    fireEvent.click(button(MSG.continue));
    await atPath(router, '/packages/notify-approvers');
    expect(session.get().currentPackage?.dccId).toBe('d-1');
    expect((await storedPackage('p-1'))?.dccId).toBe('d-1');
  });

  it('a click anywhere on a row selects it, also on the row already selected', async () => {
    openList();
    const radio = async (name: string) => screen.findByRole('radio', { name: `Select ${name}` });
    // a row clicked twice stays selected (before, the second click cleared it)
    fireEvent.click(await screen.findByText('VENT-220'));
    expect(await radio('VENT-220')).toBeChecked();
    fireEvent.click(screen.getByText('VENT-220'));
    expect(await radio('VENT-220')).toBeChecked();
    expect(button(MSG.continue)).toBeEnabled();
    // the radio's own cell and any other cell of a row select that row
    fireEvent.click((await radio('GLU-BLE-2')).closest('td') as HTMLElement);
    expect(await radio('GLU-BLE-2')).toBeChecked();
    expect(await radio('VENT-220')).not.toBeChecked();
    fireEvent.click(screen.getByText('TelB'));
    expect(await radio('VENT-220')).toBeChecked();
  });

  it("opens the form with 'Create new DCC'", async () => {
    const { router } = openList();
    fireEvent.click(await screen.findByRole('button', { name: MSG.createNewDcc }));
    await atPath(router, '/packages/dcc/create');
  });
});

describe('Create DCC (spec §2.8, §5, §9)', () => {
  it('starts with TelA and limits 0, and needs a Device ID to Save', async () => {
    openCreate();
    const deviceId = await screen.findByLabelText(MSG.colDeviceId);
    expect(screen.getByLabelText(MSG.colTelemetryType)).toHaveValue('TelA');
    expect(screen.getByLabelText(MSG.colMessageLimit)).toHaveValue('0');
    expect(screen.getByLabelText(MSG.colDeviceLimit)).toHaveValue('0');
    expect(button(MSG.save)).toBeDisabled();
    fill(deviceId, '  ');
    expect(button(MSG.save)).toBeDisabled();
    fill(deviceId, 'PUMP-7');
    expect(button(MSG.save)).toBeEnabled();
    expect(button(MSG.back)).toBeEnabled();
  });

  it('accepts only numbers in the limits', async () => {
    openCreate();
    const limit = await screen.findByLabelText(MSG.colMessageLimit);
    fill(limit, '64');
    fill(limit, '64k');
    expect(limit).toHaveValue('64');
    fill(screen.getByLabelText(MSG.colDeviceLimit), '-1');
    expect(screen.getByLabelText(MSG.colDeviceLimit)).toHaveValue('0');
  });

  it("says 'Message limit must be bigger then 16 bytes' and 'Device limit must be equal or bigger then Message limit'", async () => {
    openCreate();
    fill(await screen.findByLabelText(MSG.colDeviceId), 'PUMP-7');
    fireEvent.click(button(MSG.save));
    expect(await screen.findByText(MSG.dccMessageLimit)).toBeInTheDocument();
    fill(screen.getByLabelText(MSG.colMessageLimit), '64');
    fill(screen.getByLabelText(MSG.colDeviceLimit), '32');
    expect(screen.queryByText(MSG.dccMessageLimit)).not.toBeInTheDocument();
    expect(screen.getByText(MSG.dccDeviceLimit)).toBeInTheDocument();
    fill(screen.getByLabelText(MSG.colDeviceLimit), '64');
    expect(screen.queryByText(MSG.dccDeviceLimit)).not.toBeInTheDocument();
  });

  it('saves and returns to the list with the new DCC selected', async () => {
    const { router } = openCreate();
    fill(await screen.findByLabelText(MSG.colDeviceId), 'PUMP-7');
    fireEvent.change(screen.getByLabelText(MSG.colTelemetryType), { target: { value: 'BLE' } });
    fill(screen.getByLabelText(MSG.colMessageLimit), '16');
    fill(screen.getByLabelText(MSG.colDeviceLimit), '2048');
    fireEvent.click(button(MSG.save));
    await atPath(router, '/packages/dcc');
    expect((await memoryBackend().dccs.list()).find((d) => d.deviceId === 'PUMP-7')).toMatchObject({
      telemetryType: 'BLE',
      messageLimit: 16,
      deviceLimit: 2048,
    });
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Select PUMP-7' })).toBeChecked());
    expect(button(MSG.continue)).toBeEnabled();
  });
});
