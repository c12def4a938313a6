import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AppProvider } from '@/app/provider';
import { filterRows, formatRange, nextSort, paginate } from '@/lib/table/table-logic';
import { type Column, DataTable } from './data-table';

interface Row {
  id: string;
  name: string;
  stage: string;
  size: number;
}

const ROWS: Row[] = Array.from({ length: 12 }, (_, i) => ({
  id: `r${i + 1}`,
  name: `Item ${String.fromCharCode(76 - i)}`, // Item L … Item A
  stage: i % 2 === 0 ? 'Dev' : 'Release',
  size: (i * 7) % 12,
}));

const COLUMNS: Column<Row>[] = [
  { id: 'name', header: 'Name', cell: (r) => r.name, sortValue: (r) => r.name },
  { id: 'stage', header: 'Stage', cell: (r) => r.stage, sortValue: (r) => r.stage },
  { id: 'size', header: 'Size', cell: (r) => r.size, sortValue: (r) => r.size },
  { id: 'plain', header: 'Plain', cell: () => '-' },
];

const searchFields = (r: Row) => [r.name, r.stage];

function Harness({ rows = ROWS, mode }: { rows?: Row[]; mode?: 'single' | 'multiple' }) {
  const [tab, setTab] = useState('a');
  const [selected, setSelected] = useState<string[]>([]);
  return (
    <AppProvider>
      <button type="button" onClick={() => setTab(tab === 'a' ? 'b' : 'a')}>
        switch tab
      </button>
      <output data-testid="selected">{selected.join(',')}</output>
      <DataTable
        key={tab}
        label="Items"
        rows={rows}
        columns={COLUMNS}
        rowKey={(r) => r.id}
        searchFields={searchFields}
        selection={mode ? { mode, selected, onChange: setSelected, rowLabel: (r) => r.name } : undefined}
      />
    </AppProvider>
  );
}

const bodyRows = () =>
  within(screen.getByRole('table', { name: 'Items' }))
    .getAllByRole('row')
    .slice(1);
const names = () => bodyRows().map((r) => within(r).getAllByRole('cell').at(-4)?.textContent);
const range = () => screen.getByText(/^\d+-\d+ of \d+$/).textContent;
const search = (value: string) => fireEvent.change(screen.getByLabelText('Search'), { target: { value } });

describe('table rules', () => {
  it('shows 5 rows per page by default and offers 5, 10, 15 and 25', () => {
    render(<Harness />);
    expect(bodyRows()).toHaveLength(5);
    const sizes = within(screen.getByLabelText('Rows per page')).getAllByRole('option');
    expect(sizes.map((o) => o.textContent)).toEqual(['5', '10', '15', '25']);
    expect(range()).toBe('1-5 of 12');
  });

  it('pages forward and back with the next and previous arrows', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Harness />);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(range()).toBe('6-10 of 12');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(range()).toBe('11-12 of 12');
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(range()).toBe('6-10 of 12');
  });

  it('returns to page 1 when the page size changes', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await user.selectOptions(screen.getByLabelText('Rows per page'), '10');
    expect(range()).toBe('1-10 of 12');
    expect(bodyRows()).toHaveLength(10);
  });

  it('searches case-insensitively over the given fields and returns to page 1', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    search('rELEase');
    expect(range()).toBe('1-5 of 6');
    search('item c');
    expect(names()).toEqual(['Item C']);
  });

  it("shows '0-0 of 0' when nothing matches or the list is empty", () => {
    render(<Harness />);
    search('no such thing');
    expect(range()).toBe('0-0 of 0');
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('sorts a column none → ascending → descending → none', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Harness />);
    await user.selectOptions(screen.getByLabelText('Rows per page'), '25');
    const header = screen.getByRole('columnheader', { name: /Name/ });
    const original = names();
    await user.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    expect(names()).toEqual([...original].sort());
    await user.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(names()).toEqual([...original].sort().reverse());
    await user.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'none');
    expect(names()).toEqual(original);
  });

  it('sorts numbers as numbers and leaves columns without a sort value unsortable', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Harness />);
    await user.selectOptions(screen.getByLabelText('Rows per page'), '25');
    await user.click(within(screen.getByRole('columnheader', { name: /Size/ })).getByRole('button'));
    const sizes = bodyRows().map((r) => Number(within(r).getAllByRole('cell').at(-2)?.textContent));
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(within(screen.getByRole('columnheader', { name: 'Plain' })).queryByRole('button')).toBeNull();
  });

  it('resets page and search on a tab switch', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Harness />);
    search('item');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(range()).toBe('6-10 of 12');
    await user.click(screen.getByRole('button', { name: 'switch tab' }));
    expect(range()).toBe('1-5 of 12');
    expect(screen.getByLabelText('Search')).toHaveValue('');
  });

  it('selects several rows by click in multiple mode, and one at a time in single mode', async () => {
    const user = userEvent.setup({ delay: null });
    const { unmount } = render(<Harness mode="multiple" />);
    await user.click(screen.getByText('Item L'));
    await user.click(screen.getByText('Item K'));
    expect(screen.getByTestId('selected')).toHaveTextContent('r1,r2');
    await user.click(screen.getByText('Item L'));
    expect(screen.getByTestId('selected')).toHaveTextContent('r2');
    await user.click(screen.getByRole('checkbox', { name: 'Select Item J' }));
    expect(screen.getByTestId('selected')).toHaveTextContent('r2,r3');
    unmount();

    render(<Harness mode="single" />);
    await user.click(screen.getByText('Item L'));
    await user.click(screen.getByText('Item K'));
    expect(screen.getByTestId('selected')).toHaveTextContent(/^r2$/);
    expect(screen.getByRole('radio', { name: 'Select Item K' })).toBeChecked();
  });
});

describe('table logic', () => {
  it('cycles the sort per column and restarts on another column', () => {
    const asc = nextSort(null, 'a');
    expect(asc).toEqual({ columnId: 'a', direction: 'ascending' });
    const desc = nextSort(asc, 'a');
    expect(desc).toEqual({ columnId: 'a', direction: 'descending' });
    expect(nextSort(desc, 'a')).toBeNull();
    expect(nextSort(desc, 'b')).toEqual({ columnId: 'b', direction: 'ascending' });
  });

  it('clamps the page and formats the range', () => {
    const slice = paginate([1, 2, 3, 4, 5, 6, 7], 9, 5);
    expect(slice.page).toBe(2);
    expect(formatRange(slice)).toBe('6-7 of 7');
    expect(formatRange(paginate([], 1, 5))).toBe('0-0 of 0');
  });

  it('matches substrings of numbers and ignores missing fields', () => {
    const rows = [
      { a: 'x', n: 4096 },
      { a: undefined, n: 16 },
    ];
    expect(filterRows(rows, '409', (r) => [r.a, r.n])).toHaveLength(1);
    expect(filterRows(rows, '  ', (r) => [r.a, r.n])).toHaveLength(2);
  });
});
