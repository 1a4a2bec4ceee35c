import { describe, expect, it } from 'vitest';
import { JobPool, PoolFull } from './job-pool.js';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('JobPool', () => {
  it('runs at most `concurrency` jobs at once, the rest in arrival order, and refuses past the queue', async () => {
    const pool = new JobPool(2, 2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((each, i) =>
      pool.run(async () => {
        started.push(i);
        await each.opened;
        return i;
      }),
    );
    expect(started).toEqual([0, 1]);
    expect(pool.busy).toEqual({ running: 2, waiting: 2 });
    await expect(pool.run(async () => 'late')).rejects.toBeInstanceOf(PoolFull);

    gates[1]!.open();
    expect(await runs[1]).toBe(1);
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const each of gates) each.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(pool.busy).toEqual({ running: 0, waiting: 0 });
  });

  it('gives the place back when a job fails', async () => {
    const pool = new JobPool(1, 0);
    await expect(pool.run(() => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await pool.run(async () => 'next')).toBe('next');
  });
});
