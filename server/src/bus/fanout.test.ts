import { describe, expect, it } from 'vitest';
import { InProcessFanout } from './fanout.js';

describe('InProcessFanout', () => {
  it('delivers to every subscriber of the topic only, one frozen JSON copy for all', async () => {
    const fanout = new InProcessFanout();
    const a: unknown[] = [];
    const b: unknown[] = [];
    const other: unknown[] = [];
    fanout.subscribe('user-1', (payload) => a.push(payload));
    fanout.subscribe('user-1', (payload) => b.push(payload));
    fanout.subscribe('user-2', (payload) => other.push(payload));

    const payload = { type: 'message', id: 1, date: new Date(0) };
    await fanout.publish('user-1', payload);
    expect(a).toEqual([{ type: 'message', id: 1, date: '1970-01-01T00:00:00.000Z' }]);
    expect(b[0]).toBe(a[0]);
    expect(a[0]).not.toBe(payload);
    expect(Object.isFrozen(a[0])).toBe(true);
    expect(other).toEqual([]);
  });

  it('stops delivering after unsubscribe, and one failing handler does not starve the others', async () => {
    const errors: unknown[] = [];
    const fanout = new InProcessFanout((error) => errors.push(error));
    const seen: unknown[] = [];
    fanout.subscribe('t', () => {
      throw new Error('boom');
    });
    const unsubscribe = fanout.subscribe('t', (payload) => seen.push(payload));
    await fanout.publish('t', 1);
    unsubscribe();
    await fanout.publish('t', 2);
    expect(seen).toEqual([1]);
    expect(errors).toHaveLength(2);
  });
});
