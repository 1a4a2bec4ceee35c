import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { newDataDir } from '../test/template-database.js';
import { DemoRefused, runDemo } from './demo.js';

describe('npm run demo', () => {
  const dataDir = newDataDir('enishi-demo-');
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('fills an empty database with a club, and never touches one that has users', async () => {
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const { logins, notes } = await runDemo(env);
    // Content the demo could not add (e.g. its tables not migrated yet) is skipped with a note, never half-done.
    for (const note of notes) expect(note).toMatch(/^(news|banners|bulk send) skipped/);
    expect(logins.map((login) => login.role).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 101, 101, 101, 101, 101, 101, 201, 201, 201, 201,
    ]);
    for (const login of logins) expect(login.password).toMatch(/^[A-Za-z0-9]{12}$/);
    await expect(runDemo(env)).rejects.toBeInstanceOf(DemoRefused);
  }, 120_000);
});
