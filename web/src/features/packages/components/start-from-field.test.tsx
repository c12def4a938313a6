import type { PackageSource } from '@shared/api/contracts/packages';
import { MSG } from '@shared/messages';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { session } from '@/lib/session/session-store';
import { server } from '@/testing/backend/server';
import { fill, renderApp } from '@/testing/render-app';
import { atPath, fixtureResource } from '../testing/package-test-utils';
import { StartFromField, sourceLabel } from './start-from-field';

const COPY_LABEL = 'Copy the header and DCC from an earlier package';

/** Decision 268: each earlier package says why it is offered: this resource, or the same device. */
const source = (over: Partial<PackageSource>): PackageSource => ({
  id: 'p-1',
  name: 'Pump 1',
  status: 'REJECTED',
  type: 'DEV_UNSIGNED',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T11:30:00.000Z',
  initiatorName: 'Dana Dev',
  deviceId: 'IP-4000',
  ...over,
});

describe('start from an earlier package (decision 268)', () => {
  it('names the reason of each offer', () => {
    expect(sourceLabel(source({ match: 'resource' }))).toBe(
      'Pump 1 — Rejected — Dana Dev, 2026-11-02 11:30 — DCC IP-4000 (this resource)',
    );
    expect(sourceLabel(source({ match: 'device' }))).toContain('DCC IP-4000 (same device, another resource)');
  });

  it('says when the proposed rejected package is of the same device but another resource', () => {
    const proposed = source({ id: 'p-2', name: 'Pump 2', match: 'device' });
    render(<StartFromField sources={[proposed]} proposedId="p-2" value="p-2" onChange={() => undefined} />);
    expect(screen.getByRole('group', { name: 'Start from an earlier package' })).toHaveTextContent(
      'The latest package of this device (another resource), Pump 2, was rejected.',
    );
    expect(screen.getByText(/^Copies from/)).toHaveTextContent(
      'Copies from Pump 2 (Rejected), by Dana Dev, 2026-11-02 11:30 UTC, DCC IP-4000 (same device, another resource)',
    );
  });
});

/** a new resource (no package of its own) is offered the packages of the device the user names. */
describe('start from: a new resource names its device (decision 268)', () => {
  it('offers a Device select only when there is no earlier package, and says when the device has none', () => {
    const onDevice = vi.fn();
    const choice = { devices: ['GLU-BLE-2', 'IP-4000'], device: '', onDevice, loading: false };
    const { rerender } = render(
      <StartFromField
        sources={[]}
        proposedId={null}
        value={null}
        onChange={() => undefined}
        deviceChoice={choice}
      />,
    );
    expect(screen.getByRole('group', { name: 'Start from an earlier package' })).toHaveTextContent(
      'This resource has no earlier package. Choose its device',
    );
    const select = screen.getByLabelText('Device');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'No device chosen',
      'GLU-BLE-2',
      'IP-4000',
    ]);
    fireEvent.change(select, { target: { value: 'GLU-BLE-2' } });
    expect(onDevice).toHaveBeenCalledWith('GLU-BLE-2');
    rerender(
      <StartFromField
        sources={[]}
        proposedId={null}
        value={null}
        onChange={() => undefined}
        deviceChoice={{ ...choice, device: 'GLU-BLE-2' }}
      />,
    );
    expect(
      screen.getByText('No earlier package of this resource type names the DCC Device ID GLU-BLE-2.'),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText(COPY_LABEL)).not.toBeInTheDocument();
    // no device to choose and no earlier package: nothing shown
    rerender(<StartFromField sources={[]} proposedId={null} value={null} onChange={() => undefined} />);
    expect(screen.queryByRole('group')).not.toBeInTheDocument();
  });

  it('step 1 of a new patch: choose the device → its packages are offered → the package starts from one', async () => {
    let sent: Record<string, unknown> | undefined;
    const asked: string[] = [];
    server.events.on('request:start', async ({ request }) => {
      if (request.url.includes('/package-sources')) asked.push(new URL(request.url).search);
      if (request.url.endsWith('/generate-package')) sent = await request.clone().json();
    });
    // r-p3 has no package of its own
    const resource = fixtureResource('r-p3');
    session.update({ resource, flowPurpose: 'dev', subHeader: MSG.generateDevPackageTitle });
    const { router } = renderApp('/packages/create', { as: 'u-dev' });
    const device = await screen.findByLabelText('Device');
    expect(screen.queryByLabelText(COPY_LABEL)).not.toBeInTheDocument();
    fireEvent.change(device, { target: { value: 'IP-4000' } });
    // the device's packages are offered, the proposed one chosen, and the user sees what will be copied
    expect(await screen.findByLabelText(COPY_LABEL)).toBeChecked();
    const earlier = screen.getByLabelText('Earlier package');
    const chosen = (earlier as HTMLSelectElement).value;
    expect(chosen).not.toBe('');
    expect(
      screen.getAllByRole('option', { name: /DCC IP-4000 \(same device, another resource\)/ }).length,
    ).toBe((earlier as HTMLSelectElement).options.length);
    expect(screen.getByText(/^Copies from/)).toHaveTextContent('DCC IP-4000 (same device, another resource)');
    expect(asked).toEqual(['', '?deviceId=IP-4000']);
    fill(screen.getByLabelText(MSG.colNote), 'New build, same pump');
    fireEvent.click(screen.getByRole('button', { name: MSG.continue }));
    await atPath(router, '/packages/header');
    expect(sent).toMatchObject({ fromPackageId: chosen, packageType: 'DEV_UNSIGNED' });
    server.events.removeAllListeners();
  });
});
