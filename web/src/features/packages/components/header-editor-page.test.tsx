import type { Header } from '@shared/domain/header/header-schema';
import { MSG } from '@shared/messages';
import { fireEvent, screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/backend/server';
import { fill } from '@/testing/render-app';
import { atPath, openWith } from '../testing/package-test-utils';

const open = () => openWith('/packages/header', { as: 'u-dev', pkg: 'p-1', flow: 'dev' });
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const table = () => screen.findByRole('table', { name: 'Package header' });

/** A small header with one field of each integer type, for the maxima. */
const SMALL: Header = {
  fields: [
    { name: 'Retry Count', title: 'How often the device retries', type: 'uint8', value: 3 },
    { name: 'Model Id', type: 'uint16', value: 1 },
    { name: 'Package Id', type: 'uint32', value: 7 },
    { name: 'Header CRC', type: 'fixed', storage: 'uint32', width: 4, value: 0, computed: 'headerCrc' },
  ],
};

describe('header editor (spec §2.8, §3, §5)', () => {
  it('shows Name, Decimal and HEX, fixed fields read-only, and titles as tooltips', async () => {
    open();
    const t = await table();
    expect([...t.querySelectorAll('thead th')].map((h) => h.textContent)).toEqual([
      MSG.colName,
      MSG.colDecimal,
      MSG.colHex,
    ]);
    const magic = within(t).getByText('Start Of Message').closest('tr') as HTMLElement;
    expect(within(magic).queryByRole('textbox')).not.toBeInTheDocument();
    expect(magic).toHaveTextContent('1263556422');
    expect(magic).toHaveTextContent('0x4B505746');
    expect(magic).toHaveTextContent('Read-only');
    expect(within(t).getByText('Package Id')).toHaveAttribute(
      'title',
      'Package number the device reports back',
    );
    expect(screen.queryByLabelText('Header CRC (decimal)')).not.toBeInTheDocument();
  });

  it('keeps decimal and hex in step both ways', async () => {
    open();
    await table();
    fill(input('Package Id (decimal)'), '258');
    expect(input('Package Id (HEX)')).toHaveValue('0x00000102');
    fill(input('Device Model Id, Model Id (HEX)'), '0x1f');
    expect(input('Device Model Id, Model Id (decimal)')).toHaveValue('31');
    fireEvent.blur(input('Device Model Id, Model Id (HEX)'));
    expect(input('Device Model Id, Model Id (HEX)')).toHaveValue('0x001F');
  });

  it.each([
    ['Retry Count', '256', '255', '0xFF', 'uint8'],
    ['Model Id', '65536', '65535', '0xFFFF', 'uint16'],
    ['Package Id', '4294967296', '4294967295', '0xFFFFFFFF', 'uint32'],
  ])('refuses %s above its maximum and accepts the maximum (%s)', async (name, above, max, maxHex, type) => {
    server.use(
      http.get('/dev/packages/:id/header', () => HttpResponse.json({ header: JSON.stringify(SMALL) })),
    );
    open();
    await table();
    fill(input(`${name} (decimal)`), max);
    expect(input(`${name} (HEX)`)).toHaveValue(maxHex);
    fill(input(`${name} (decimal)`), above);
    expect(input(`${name} (decimal)`)).toHaveValue(max);
    expect(
      screen.getByText(`Not accepted: Value is above the maximum ${max} of a ${type}`),
    ).toBeInTheDocument();
    fill(input(`${name} (HEX)`), `0x1${maxHex.slice(2)}`);
    expect(input(`${name} (decimal)`)).toHaveValue(max);
  });

  it('refuses text that is not a number, or not hex', async () => {
    open();
    await table();
    fill(input('Package Id (decimal)'), '12a');
    expect(input('Package Id (decimal)')).toHaveValue('0');
    expect(screen.getByText('Not accepted: Value must be a number')).toBeInTheDocument();
    fill(input('Package Id (HEX)'), '0xZZ');
    expect(input('Package Id (HEX)')).toHaveValue('0x00000000');
    expect(screen.getByText('Not accepted: Value must be a hex number')).toBeInTheDocument();
  });

  it('blocks Continue while a value is blank', async () => {
    open();
    await table();
    fill(input('Package Id (decimal)'), '');
    expect(screen.getByRole('button', { name: MSG.continue })).toBeDisabled();
    fill(input('Package Id (decimal)'), '5');
    expect(screen.getByRole('button', { name: MSG.continue })).toBeEnabled();
  });

  it('offers enums as selects of their options', async () => {
    open();
    await table();
    const operation = screen.getByLabelText('Update Operation Type');
    expect(
      within(operation)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['INSTALL', 'UPDATE', 'ROLLBACK']);
    fireEvent.change(operation, { target: { value: '1' } });
    const row = operation.closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('0x01');
    const patchId = screen.getByLabelText('Patch Id');
    expect(within(patchId).getAllByRole('option')).toHaveLength(64);
    fireEvent.change(patchId, { target: { value: '5' } });
    expect(patchId.closest('tr')).toHaveTextContent('0x0000000000000020');
  });

  it('adds list entries from the template and deletes them', async () => {
    open();
    await table();
    fireEvent.click(screen.getByRole('button', { name: '+ Add entry to Patch Criteria Items' }));
    fireEvent.click(screen.getByRole('button', { name: '+ Add entry to Patch Criteria Items' }));
    expect(screen.getByText('2 of 16 entries')).toBeInTheDocument();
    expect(input('Patch Criteria Items entry 1, Mask (HEX)')).toHaveValue('0xFFFFFFFF');
    expect(screen.getByLabelText('Patch Criteria Items entry 2, Operator')).toHaveValue('0');
    expect(
      within(screen.getByLabelText('Patch Criteria Items entry 1, Operator'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['EQUAL', 'NOT_EQUAL', 'LESS', 'MORE', 'LESS_AND_EQUAL', 'MORE_AND_EQUAL']);
    fill(input('Patch Criteria Items entry 2, Address (HEX)'), '0x1FFF7A10');
    fireEvent.click(screen.getByRole('button', { name: 'Delete entry 1 of Patch Criteria Items' }));
    expect(screen.getByText('1 of 16 entries')).toBeInTheDocument();
    expect(input('Patch Criteria Items entry 1, Address (HEX)')).toHaveValue('0x1FFF7A10');
    expect(screen.queryByLabelText('Patch Criteria Items entry 2, Address (HEX)')).not.toBeInTheDocument();
  });

  it('saves the edited header as JSON text and moves to the DCC step', async () => {
    let sent: { fields: { name: string; value: unknown }[] } | undefined;
    server.events.on('request:start', async ({ request }) => {
      if (request.method === 'PATCH')
        sent = JSON.parse(((await request.clone().json()) as { header: string }).header);
    });
    const { router } = open();
    await table();
    fill(input('Package Id (decimal)'), '258');
    // WCAG 2.5.3: the accessible name contains the visible text
    const add = screen.getByRole('button', { name: '+ Add entry to Flash Update Criteria Items' });
    expect(add.textContent?.trim()).toBe('+ Add entry');
    fireEvent.click(add);
    fireEvent.click(screen.getByRole('button', { name: MSG.continue }));
    await atPath(router, '/packages/dcc');
    expect(sent?.fields.find((f) => f.name === 'Package Id')?.value).toBe(258);
    expect(sent?.fields.find((f) => f.name === 'Flash Update Criteria Items')?.value).toHaveLength(1);
    server.events.removeAllListeners();
  });

  it("shows the server's refusal on the fields it names", async () => {
    server.use(
      http.patch('/dev/packages/:id/header', () =>
        HttpResponse.json(
          {
            errorMessage: 'Invalid header: Package Id is reserved; Header Destination must be aligned',
            headerErrors: [
              { field: 'Package Id', message: 'is reserved' },
              { field: 'Somewhere Else', message: 'is odd' },
            ],
          },
          { status: 400 },
        ),
      ),
    );
    const { router } = open();
    await table();
    fireEvent.click(screen.getByRole('button', { name: MSG.continue }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Somewhere Else: is odd');
    expect(screen.getByText('Package Id').closest('th')).toHaveTextContent('is reserved');
    expect(router.state.location.pathname).toBe('/packages/header');
  });

  it('does not let anyone but the initiator edit a draft', async () => {
    openWith('/packages/header', { as: 'u-test', pkg: 'p-1', flow: 'dev' });
    await table();
    expect(screen.getByText('Only the initiator of this package can edit its header.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: MSG.continue })).toBeDisabled();
  });
});
