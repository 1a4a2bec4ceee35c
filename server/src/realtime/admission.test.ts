import { describe, expect, it } from 'vitest';
import { Admission, ADMISSION, type AdmissionTurn } from './admission.js';

/** A task that runs until its `finish` is called, noting when it began. */
function task(name: string, began: string[]) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    run: async () => {
      began.push(name);
      await done;
      return name;
    },
    finish,
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('Admission', () => {
  it('runs at most its number at once, and then staff first, unread sessions next, members last', async () => {
    const admission = new Admission(2);
    const began: string[] = [];
    const tasks = new Map<string, ReturnType<typeof task>>();
    const results: Promise<string>[] = [];
    const start = (name: string, turn: AdmissionTurn) => {
      const each = task(name, began);
      tasks.set(name, each);
      results.push(admission.run(turn, each.run));
    };
    start('session 1', ADMISSION.session);
    start('session 2', ADMISSION.session);
    start('member 1', ADMISSION.member);
    start('session 3', ADMISSION.session);
    start('staff 1', ADMISSION.staff);
    start('member 2', ADMISSION.member);
    start('session 4', ADMISSION.session);
    await settled();
    expect(began).toEqual(['session 1', 'session 2']);

    // Each task ends in the order it began; the next to begin is the first waiting, by turn.
    for (let ended = 0; ended < 7; ended += 1) {
      tasks.get(began[ended]!)!.finish();
      await settled();
      expect(began.length).toBe(Math.min(7, ended + 3));
    }
    expect(await Promise.all(results)).toHaveLength(7);
    expect(began).toEqual([
      'session 1',
      'session 2',
      'staff 1',
      'session 3',
      'session 4',
      'member 1',
      'member 2',
    ]);
  });

  it('gives the place back when a task fails', async () => {
    const admission = new Admission(1);
    await expect(
      admission.run(ADMISSION.session, () => Promise.reject(new Error('database away'))),
    ).rejects.toThrow('database away');
    expect(await admission.run(ADMISSION.staff, async () => 'next')).toBe('next');
  });
});
