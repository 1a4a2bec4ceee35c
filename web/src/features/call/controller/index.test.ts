import { describe, expect, it } from 'vitest';
import { mayTakePart } from './index';

describe('who takes part in calls (product.md §17)', () => {
  it('staff and male members take part; women and visitors do not', () => {
    expect([1, 2, 3, 6, 101].every(mayTakePart)).toBe(true);
    expect([201, 0].some(mayTakePart)).toBe(false);
  });
});
