import { describe, expect, it } from 'vitest';
import { acceptsProfileImage, fitWithin } from './profile-image';

describe('profile image (product.md §5)', () => {
  it('takes JPEG and PNG up to 5,000,000 bytes only', () => {
    expect(acceptsProfileImage({ type: 'image/jpeg', size: 5_000_000 })).toBe(true);
    expect(acceptsProfileImage({ type: 'image/png', size: 10 })).toBe(true);
    expect(acceptsProfileImage({ type: 'image/png', size: 5_000_001 })).toBe(false);
    expect(acceptsProfileImage({ type: 'image/webp', size: 10 })).toBe(false);
    expect(acceptsProfileImage({ type: 'image/gif', size: 10 })).toBe(false);
  });

  it('fits inside 200 by 200 keeping the proportions, never enlarging', () => {
    expect(fitWithin(4000, 3000)).toEqual({ width: 200, height: 150 });
    expect(fitWithin(600, 1200)).toEqual({ width: 100, height: 200 });
    expect(fitWithin(150, 90)).toEqual({ width: 150, height: 90 });
    expect(fitWithin(5000, 1)).toEqual({ width: 200, height: 1 });
  });
});
