import { describe, expect, it } from 'vitest';
import { LIMITS, socketReconnectDelay } from './limits.js';

describe('socketReconnectDelay', () => {
  it('is 4.5 s on average, spread over 3.5 to 5.5 s', () => {
    expect(LIMITS.socketReconnectMs).toBe(4500);
    expect(socketReconnectDelay(() => 0)).toBe(3500);
    expect(socketReconnectDelay(() => 0.5)).toBe(4500);
    expect(socketReconnectDelay(() => 0.999999)).toBeCloseTo(5500, 0);
  });
});
