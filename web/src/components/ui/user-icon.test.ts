import { describe, expect, it } from 'vitest';
import { initials, toneOf } from './user-icon';

describe('initials', () => {
  it('takes the first two characters of the name', () => {
    expect(initials('山田 花子')).toBe('山田');
    expect(initials('  Ann')).toBe('An');
  });

  it('never splits a character made of two UTF-16 units', () => {
    expect(initials('𠮷野家')).toBe('𠮷野');
  });
});

describe('toneOf', () => {
  it('styles staff gold, women rose and men navy, a role the club does not use as a man', () => {
    expect([1, 2, 3, 6, 101, 201, 0, 7].map(toneOf)).toEqual([
      'staff',
      'staff',
      'staff',
      'staff',
      'men',
      'women',
      'men',
      'men',
    ]);
  });
});
