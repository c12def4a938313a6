import type { Header } from '@shared/domain/header/header-schema';
import { describe, expect, it } from 'vitest';
import {
  type HeaderEditorAction,
  type HeaderEditorState,
  hasBlank,
  headerEditorReducer,
  initialEditorState,
  NUMBER_REQUIRED,
  placeErrors,
  typeDecimal,
  typeHex,
} from './header-editor-state';

const HEADER: Header = {
  fields: [
    { name: 'Package Id', type: 'uint32', value: 7 },
    {
      name: 'Device Model Id',
      type: 'group',
      template: [{ name: 'Model Id', type: 'uint16', value: 0 }],
      value: { 'Model Id': 1 },
    },
    {
      name: 'Items',
      type: 'list',
      maxEntries: 4,
      template: [{ name: 'Mask', type: 'uint8', value: 255 }],
      value: [{ Mask: 1 }, { Mask: 2 }],
    },
  ],
};

const run = (state: HeaderEditorState, ...actions: HeaderEditorAction[]) =>
  actions.reduce(headerEditorReducer, state);
const valueIn = (state: HeaderEditorState, name: string) => state.fields.find((f) => f.name === name)?.value;

describe('header editor state (spec §2.8, §5)', () => {
  it('gives every list entry a key of its own and starts with no drafts, errors or refusal', () => {
    const state = initialEditorState(HEADER);
    expect(state.entryKeys).toEqual({ Items: [1, 2] });
    expect(state.nextKey).toBe(3);
    expect([state.drafts, state.errors, state.refusal, state.saving]).toEqual([{}, {}, null, false]);
  });

  it('sets a top-level value, a group member and a list entry member', () => {
    const state = run(
      initialEditorState(HEADER),
      { type: 'value', path: 'Package Id', target: { field: 'Package Id' }, value: 9 },
      {
        type: 'value',
        path: 'Device Model Id.Model Id',
        target: { field: 'Device Model Id', member: 'Model Id' },
        value: 31,
      },
      {
        type: 'value',
        path: 'Items[1].Mask',
        target: { field: 'Items', index: 1, member: 'Mask' },
        value: 8,
      },
    );
    expect(valueIn(state, 'Package Id')).toBe(9);
    expect(valueIn(state, 'Device Model Id')).toEqual({ 'Model Id': 31 });
    expect(valueIn(state, 'Items')).toEqual([{ Mask: 1 }, { Mask: 8 }]);
  });

  it("clears the server's error on a value when it changes, and only that one", () => {
    const refused = run(initialEditorState(HEADER), {
      type: 'refused',
      refusal: { message: 'refused', unplaced: [] },
      errors: { 'Package Id': 'too big', 'Items[0].Mask': 'bad' },
    });
    const state = run(refused, {
      type: 'value',
      path: 'Package Id',
      target: { field: 'Package Id' },
      value: 1,
    });
    expect(state.errors).toEqual({ 'Items[0].Mask': 'bad' });
    expect(state.refusal?.message).toBe('refused');
  });

  it('blocks Continue while an input is blank and unblocks when the draft goes', () => {
    const blank = run(initialEditorState(HEADER), {
      type: 'typed',
      path: 'Package Id',
      target: { field: 'Package Id' },
      typed: typeDecimal('', 'uint32', { dec: '7', hex: '0x00000007' }),
    });
    expect(hasBlank(blank)).toBe(true);
    expect(valueIn(blank, 'Package Id')).toBe(7);
    expect(hasBlank(run(blank, { type: 'draft', path: 'Package Id', draft: undefined }))).toBe(false);
  });

  it('adds an entry with a new key and deletes one keeping the keys of the others', () => {
    const added = run(initialEditorState(HEADER), { type: 'addEntry', list: 'Items' });
    expect(valueIn(added, 'Items')).toEqual([{ Mask: 1 }, { Mask: 2 }, { Mask: 255 }]);
    expect(added.entryKeys.Items).toEqual([1, 2, 3]);
    const deleted = run(added, { type: 'deleteEntry', list: 'Items', index: 0 });
    expect(valueIn(deleted, 'Items')).toEqual([{ Mask: 2 }, { Mask: 255 }]);
    expect(deleted.entryKeys.Items).toEqual([2, 3]);
    expect(run(deleted, { type: 'addEntry', list: 'Items' }).entryKeys.Items).toEqual([2, 3, 4]);
  });

  it("drops a list's drafts and errors when its entries are renumbered, and keeps the others", () => {
    const state = run(
      initialEditorState(HEADER),
      { type: 'draft', path: 'Items[1].Mask', draft: { dec: '', hex: '', error: NUMBER_REQUIRED } },
      { type: 'draft', path: 'Package Id', draft: { dec: '', hex: '', error: NUMBER_REQUIRED } },
      {
        type: 'refused',
        refusal: { message: 'refused', unplaced: [] },
        errors: { Items: 'too many', 'Items[0].Mask': 'bad', 'Package Id': 'too big' },
      },
      { type: 'deleteEntry', list: 'Items', index: 0 },
    );
    expect(Object.keys(state.drafts)).toEqual(['Package Id']);
    expect(state.errors).toEqual({ 'Package Id': 'too big' });
  });
});

describe('typing into the Decimal and HEX inputs (spec §5)', () => {
  const shown = { dec: '7', hex: '0x07' };

  it('keeps decimal and hex in step', () => {
    expect(typeDecimal(' 31 ', 'uint8', shown)).toEqual({ value: 31, draft: { dec: '31', hex: '0x1F' } });
    expect(typeHex('0x1f', 'uint8', shown)).toEqual({ value: 31, draft: { dec: '31', hex: '0x1f' } });
  });

  it('refuses a value above the maximum and keeps what the inputs showed', () => {
    expect(typeDecimal('256', 'uint8', shown)).toEqual({
      draft: { dec: '7', hex: '0x07', notice: 'Not accepted: Value is above the maximum 255 of a uint8' },
    });
  });

  it('marks a blank input, and 0x alone, as needing a number', () => {
    expect(typeDecimal('  ', 'uint8', shown).draft).toEqual({ dec: '', hex: '', error: NUMBER_REQUIRED });
    expect(typeHex('0x', 'uint8', shown).draft).toEqual({ dec: '', hex: '0x', error: NUMBER_REQUIRED });
  });
});

describe('placing the server errors', () => {
  it('puts errors on the rows they name, joins two on one row, and keeps the rest apart', () => {
    const errors = [
      { field: 'Package Id', message: 'too big' },
      { field: 'Package Id', message: 'odd' },
      { field: 'Items[1].Mask', message: 'bad' },
      { field: 'Items[2].Mask', message: 'no such entry' },
    ];
    expect(placeErrors(HEADER.fields, errors)).toEqual({
      placed: { 'Package Id': 'too big; odd', 'Items[1].Mask': 'bad' },
      unplaced: [{ field: 'Items[2].Mask', message: 'no such entry' }],
    });
  });
});
