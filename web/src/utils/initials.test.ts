import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('avatar initials', () => {
  it('takes the initials of the first two words of the name', () => {
    expect(initials('Dana Dev')).toBe('DD');
    expect(initials('Riley  Reliability Smith')).toBe('RR');
  });

  it('takes the first two letters of a single word', () => {
    expect(initials('Madonna')).toBe('MA');
  });

  it('ignores surrounding spaces and copes with one letter or none', () => {
    expect(initials('  ada   lovelace ')).toBe('AL');
    expect(initials('Q')).toBe('Q');
    expect(initials('   ')).toBe('?');
  });

  it('keeps letters outside ASCII whole', () => {
    expect(initials('Émile Ørsted')).toBe('ÉØ');
  });
});
