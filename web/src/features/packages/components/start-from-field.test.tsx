import type { PackageSource } from '@shared/api/contracts/packages';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StartFromField, sourceLabel } from './start-from-field';

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
