import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase } from '../db/client.js';
import { SecretRepository } from '../repositories/secret-repository.js';
import { deviceTokens } from '../composition/login-wiring.js';
import { SIGNING_SECRET } from '../services/media-service.js';
import { createTestContext, type TestContext } from '../test/app.js';
import { createPostgresDatabase, DEFAULT_ENGINE } from '../test/database.js';
import { rotateKey, rotateKeyFromArgs } from './rotate-key.js';

const contexts: TestContext[] = [];
const folders: string[] = [];
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const context of contexts) await context.close();
  for (const drop of drops) await drop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('rotate-key', () => {
  it('image-signing: picture URLs signed before stop working at every instance started after it', async () => {
    const ctx = await createTestContext();
    contexts.push(ctx);
    const [url] = ctx.app.services.media.sign(['picture']);
    const { e, s } = Object.fromEntries(new URL(url!, 'http://x').searchParams) as { e: string; s: string };
    expect(ctx.app.services.media.verify('picture', e, s)).toBe(true);

    await rotateKey(ctx.database.db, 'image-signing');
    // A running instance keeps its key until it restarts; one started after the rotation has the new key.
    expect(ctx.app.services.media.verify('picture', e, s)).toBe(true);
    const restarted = await ctx.buildApp();
    expect(restarted.services.media.verify('picture', e, s)).toBe(false);
    const [fresh] = restarted.services.media.sign(['picture']);
    const next = Object.fromEntries(new URL(fresh!, 'http://x').searchParams) as { e: string; s: string };
    expect(restarted.services.media.verify('picture', next.e, next.s)).toBe(true);
  });

  it('device-token: device tokens issued before stop counting once the instances restart', async () => {
    const ctx = await createTestContext();
    contexts.push(ctx);
    const before = deviceTokens(new SecretRepository(ctx.database.db));
    const token = await before.issue('owner');
    expect(await before.check(token, 'owner')).not.toBeNull();

    await rotateKey(ctx.database.db, 'device-token');
    const after = deviceTokens(new SecretRepository(ctx.database.db));
    expect(await after.check(token, 'owner')).toBeNull();
    expect(await after.check(await after.issue('owner'), 'owner')).not.toBeNull();
  });

  it('runs on the database the environment names, and names the keys it rotates when given another', async () => {
    const env: NodeJS.ProcessEnv = {
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'enishi-rotate-')),
      LOG_LEVEL: 'silent',
    };
    folders.push(env.DATA_DIR!);
    if (DEFAULT_ENGINE === 'postgres') {
      const created = await createPostgresDatabase();
      drops.push(() => created.drop());
      env.DATABASE_URL = created.url;
    }
    await expect(rotateKeyFromArgs(['vapid'], env)).rejects.toThrow(
      /usage: rotate-key device-token\|image-signing/,
    );
    expect(await rotateKeyFromArgs(['image-signing'], env)).toMatchObject({ rotated: 'image-signing' });
    const database = await openConfiguredDatabase(loadConfig(env));
    try {
      const key = await new SecretRepository(database.db).getOrCreate(SIGNING_SECRET, 'not rotated');
      expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    } finally {
      await database.close();
    }
  }, 120_000);
});
