import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client.js';
import { sessions as sessionsTable } from '../db/schema.js';
import { sha256Hex } from '../lib/tokens.js';
import { SessionRepository } from '../repositories/session-repository.js';
import { UserRepository } from '../repositories/user-repository.js';
import { openTestDatabase } from '../test/database.js';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SessionService } from './session-service.js';

const DAY = 24 * 3_600_000;

describe('SessionService', () => {
  let database: DatabaseHandle;
  let now = Date.UTC(2026, 0, 1);
  let service: SessionService;
  let userId: number;

  beforeAll(async () => {
    database = await openTestDatabase();
    service = new SessionService(new SessionRepository(database.db), () => now);
    const user = await new UserRepository(database.db).create({
      loginId: 'member',
      name: '会員',
      passwordHash: 'h',
      role: 101,
    });
    userId = user!.id;
  });
  afterAll(() => database.close());

  const lastSeen = async (token: string) => {
    const rows = await database.db
      .select()
      .from(sessionsTable)
      .where(eq(sessionsTable.id, sha256Hex(token)));
    return rows[0]?.lastSeenAt.getTime();
  };

  it('hands out a 43-character token and stores only its sha256', async () => {
    const token = await service.start(userId, 'UA');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await database.db.select().from(sessionsTable);
    expect(stored.map((row) => row.id)).toContain(sha256Hex(token));
    expect(stored.map((row) => row.id)).not.toContain(token);
    expect((await service.resolve(token))?.uid).toBe(userId);
  });

  it('refuses missing, malformed and unknown tokens', async () => {
    for (const token of [undefined, null, 42, '', 'short', 'x'.repeat(43)]) {
      expect(await service.resolve(token)).toBeNull();
    }
  });

  it('records use at most once a minute', async () => {
    const token = await service.start(userId, '');
    const started = now;
    now += 30_000;
    await service.resolve(token);
    expect(await lastSeen(token)).toBe(started);
    now += 31_000;
    await service.resolve(token);
    expect(await lastSeen(token)).toBe(now);
  });

  it('ends a session after 30 idle days', async () => {
    const token = await service.start(userId, '');
    now += SESSION_IDLE_MS - 1000;
    expect(await service.resolve(token)).not.toBeNull();
    now += SESSION_IDLE_MS;
    expect(await service.resolve(token)).toBeNull();
    // Gone for good, not just refused this time.
    expect(await lastSeen(token)).toBeUndefined();
  });

  it('ends a session 180 days after login even when used every few weeks', async () => {
    const token = await service.start(userId, '');
    const end = now + SESSION_ABSOLUTE_MS;
    while (now + 20 * DAY < end) {
      now += 20 * DAY;
      expect(await service.resolve(token)).not.toBeNull();
    }
    now = end;
    expect(await service.resolve(token)).toBeNull();
  });

  it('purges expired sessions', async () => {
    const token = await service.start(userId, '');
    now += SESSION_IDLE_MS + 1;
    expect(await service.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await lastSeen(token)).toBeUndefined();
  });
});
