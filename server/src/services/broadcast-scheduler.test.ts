import { describe, expect, it } from 'vitest';
import { BroadcastScheduler } from './broadcast-scheduler.js';

/** A database of scheduled sends, as `sendDue` sees it: each look may be held open to test what overlaps it. */
function sends() {
  const due: string[] = [];
  const sent: string[] = [];
  let looks = 0;
  let hold: Promise<void> | null = null;
  const sendDue = async () => {
    looks += 1;
    const next = due.shift();
    await hold;
    if (next === undefined) return false;
    sent.push(next);
    return true;
  };
  return {
    due,
    sent,
    looks: () => looks,
    /** Holds the looks until the returned function is called. */
    holdLooks: () => {
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      return () => {
        hold = null;
        release();
      };
    },
    sendDue,
  };
}

/** A scheduler over `db` that lets no failed look pass unseen. */
const schedulerOf = (db: ReturnType<typeof sends>) =>
  new BroadcastScheduler(db.sendDue, (error) => {
    throw error;
  });

describe('the scheduled sends’ look (product.md §4.6)', () => {
  it('sends what fell due while an earlier look was under way, by the time a tick asked then resolves', async () => {
    const db = sends();
    const scheduler = schedulerOf(db);
    const release = db.holdLooks();
    // A look starts (at start-up, or the poll's), finds nothing due and waits on the database.
    const first = scheduler.tick();
    // Meanwhile a send falls due, and someone asks for everything due now.
    db.due.push('予約の一斉送信');
    const asked = scheduler.tick();
    release();
    await asked;
    expect(db.sent).toEqual(['予約の一斉送信']);
    await first;
  });

  it('shares one more look between everyone who asks while a look is under way', async () => {
    const db = sends();
    const scheduler = schedulerOf(db);
    const release = db.holdLooks();
    const first = scheduler.tick();
    const others = [scheduler.tick(), scheduler.tick(), scheduler.tick()];
    release();
    await Promise.all([first, ...others]);
    // The first look, and one more after it (each asks once when nothing is due).
    expect(db.looks()).toBe(2);
    await scheduler.stop();
  });
});
