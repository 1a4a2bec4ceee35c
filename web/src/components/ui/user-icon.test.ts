import { describe, expect, it } from 'vitest';
import { initials } from './user-icon';

describe('initials', () => {
  it('takes the first two characters of the name', () => {
    expect(initials('山田 花子')).toBe('山田');
    expect(initials('  Ann')).toBe('An');
  });

  it('never splits a character made of two UTF-16 units', () => {
    expect(initials('𠮷野家')).toBe('𠮷野');
  });
});
