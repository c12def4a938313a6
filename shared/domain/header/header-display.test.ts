import { describe, expect, it } from 'vitest';
import { displayCells, formatHex, newListEntry, parseDecimalInput, parseHexInput } from './header-display';
import type { ListField } from './header-schema';
import { headerTemplate } from './header-template';

const template = headerTemplate();
const byName = (n: string) => template.fields.find((f) => f.name === n)!;

describe('header editor helpers', () => {
  it('pads hex to the width of the type', () => {
    expect(formatHex(255, 'uint16')).toBe('0x00FF');
    expect(formatHex(0x4b505746, 'uint32')).toBe('0x4B505746');
  });
  it('shows the Patch Id as its 64-bit mask', () => {
    expect(displayCells(byName('Patch Id'), 63)).toEqual({
      decimal: '9223372036854775808',
      hex: '0x8000000000000000',
    });
  });
  it('shows fixed bytes as hex only', () => {
    expect(displayCells(byName('Reserved Space'))).toEqual({ decimal: '', hex: '0x000000000000' });
  });
  it('refuses decimal input that is not a number', () => {
    expect(parseDecimalInput('12a', 'uint8')).toEqual({ error: 'Value must be a number' });
  });
  it('refuses input beyond the maximum of the type', () => {
    expect(parseDecimalInput('256', 'uint8')).toEqual({ error: 'Value is above the maximum 255 of a uint8' });
    expect(parseHexInput('0x10000', 'uint16')).toEqual({
      error: 'Value is above the maximum 65535 of a uint16',
    });
    expect(parseHexInput('FFFFFFFF', 'uint32')).toEqual({ value: 4294967295 });
  });
  it('refuses hex input that does not parse', () => {
    expect(parseHexInput('0xZZ', 'uint32')).toEqual({ error: 'Value must be a hex number' });
  });
  it('makes a new list entry from the template defaults', () => {
    expect(newListEntry(byName('Patch Criteria Items') as ListField)).toEqual({
      Address: 0,
      Mask: 0xffffffff,
      Value: 0,
      Operator: 0,
    });
  });
});
