import type { PackageChanges } from '@shared/domain/package-changes';
import { MSG } from '@shared/messages';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { openWith } from '../testing/package-test-utils';
import { ChangesBody, cellsText } from './changes-panel';

/** "Changes since the last approved package" on the review pages. */

const changes: PackageChanges = {
  packageId: 'p-new',
  resourceType: 'PATCH',
  deviceId: 'IP-4000',
  previous: {
    id: 'p-old',
    name: 'Pump 3.1',
    status: 'DELIVERED',
    type: 'RELEASE_SIGNED',
    resourceName: 'fw',
    approvedAt: '2026-03-01T10:20:30.000Z',
  },
  header: [
    {
      path: 'Package Id',
      type: 'uint32',
      old: { decimal: '1', hex: '0x00000001' },
      new: { decimal: '2', hex: '0x00000002' },
    },
    {
      path: 'Patch Data Size',
      type: 'fixed uint32',
      computed: true,
      old: { decimal: '10', hex: '0x0000000A' },
      new: { decimal: '12', hex: '0x0000000C' },
    },
  ],
  lists: [
    {
      field: 'Patch Criteria Items',
      oldCount: 0,
      newCount: 1,
      added: [
        {
          index: 0,
          values: [{ name: 'Operator', cells: { decimal: '3', hex: '0x03', label: 'MORE' } }],
        },
      ],
      removed: [],
      changed: [],
    },
  ],
  files: [
    {
      file: 'payload',
      old: { fileName: 'a.bin', sizeBytes: 10, sha256: 'aa' },
      new: { fileName: 'b.bin', sizeBytes: 12, sha256: 'bb' },
      sameDigest: false,
      sameSize: false,
    },
  ],
  dcc: [{ field: 'deviceLimit', old: 4096, new: 8192 }],
  headerCompared: true,
};

describe('changes panel', () => {
  it('shows fields old → new in decimal and hex, criteria, digests, DCC and the previous package with a link', () => {
    render(
      <MemoryRouter>
        <ChangesBody changes={changes} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Pump 3.1' })).toHaveAttribute('href', '/packages/open/p-old');
    expect(screen.getByText(/\(Delivered; approved 2026-03-01 10:20 UTC\)/)).toBeInTheDocument();
    const row = screen.getByRole('row', { name: /Package Id/ });
    expect(row).toHaveTextContent('1 (0x00000001)');
    expect(row).toHaveTextContent('2 (0x00000002)');
    expect(screen.getByRole('row', { name: /Patch Data Size/ })).toHaveTextContent('(set by the server)');
    expect(screen.getByRole('list', { name: 'Patch Criteria Items changes' })).toHaveTextContent(
      'Added Entry 1: Operator MORE (3, 0x03)',
    );
    const files = screen.getByRole('list', { name: 'Payload and metadata' });
    expect(files).toHaveTextContent('was: 10 bytes, SHA-256 aa');
    expect(files).toHaveTextContent('now: 12 bytes, SHA-256 bb');
    expect(screen.getByRole('list', { name: 'DCC differences' })).toHaveTextContent(
      `${MSG.colDeviceLimit}: 4,096 bytes → 8,192 bytes`,
    );
  });

  it('says when there is no earlier approved package', () => {
    render(<ChangesBody changes={{ ...changes, previous: null }} message={MSG.noEarlierApproved} />);
    expect(screen.getByRole('note')).toHaveTextContent(MSG.noEarlierApproved);
  });

  it('writes a value as decimal and hex, an enum with its label, fixed bytes as hex, a missing side as a dash', () => {
    expect(cellsText({ decimal: '42', hex: '0x2A' })).toBe('42 (0x2A)');
    expect(cellsText({ decimal: '3', hex: '0x03', label: 'MORE' })).toBe('MORE (3, 0x03)');
    expect(cellsText({ decimal: '', hex: '0xFF01' })).toBe('0xFF01');
    expect(cellsText(null)).toBe('—');
  });

  it('is above the decision on the header view, and the signature dialog states it was seen', async () => {
    openWith('/packages/header/view', { as: 'u-lead', pkg: 'pk-approve-dev', flow: 'approve' });
    const panel = await screen.findByRole('region', { name: MSG.changesTitle });
    // the mock holds an approved package for the same device (IP-4000) and resource type
    const link = await within(panel).findByRole('link');
    expect(panel).toHaveTextContent('IP-4000');
    await screen.findByRole('table', { name: 'Package header' });
    fireEvent.click(screen.getByRole('button', { name: MSG.approve }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(`${MSG.changesSeen} Compared with ${link.textContent}`);
  });
});
