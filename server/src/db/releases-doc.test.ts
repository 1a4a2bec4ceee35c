import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readReleasesDoc } from '../test/releases.js';
import { MIGRATIONS_FOLDER } from './client.js';
import { readMigrations } from './migrations.js';

/*
 * docs/releases.md cannot go stale again: every migration of the journal is listed there with the release
 * that brought it, every listed release has its upgrade fixture, and a release whose migrations declare
 * `-- breaks: previous` says that it cannot run beside the release before it.
 */

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const journal = readMigrations(MIGRATIONS_FOLDER);
const doc = readReleasesDoc();

describe('docs/releases.md', () => {
  it('lists every migration of the journal, in its order, each with a listed release', () => {
    expect(doc.migrations.map((migration) => migration.tag)).toEqual(journal.map((entry) => entry.tag));
    const commits = doc.releases.map((release) => release.commit);
    for (const migration of doc.migrations) {
      expect({ migration: migration.tag, release: migration.release }).toEqual({
        migration: migration.tag,
        release: expect.toSatisfy((release: string) => release === 'next' || commits.includes(release)),
      });
    }
  });

  it('lists the releases oldest first, as their migrations came', () => {
    const order = doc.migrations
      .map((migration) => migration.release)
      .filter((release, index, all) => release !== 'next' && all.indexOf(release) === index);
    expect(order).toEqual(doc.releases.map((release) => release.commit));
  });

  it('has an upgrade fixture for every listed release', () => {
    for (const { commit } of doc.releases)
      expect({ commit, fixture: existsSync(`${FIXTURES}release-${commit}.sql`) }).toEqual({
        commit,
        fixture: true,
      });
  });

  it('says "no" for running beside the release before it wherever a migration breaks that release', () => {
    const breaking = new Set(
      journal
        .filter((entry) => entry.breaksPrevious)
        .map((entry) => doc.migrations.find((listed) => listed.tag === entry.tag)?.release),
    );
    for (const release of doc.releases) {
      if (breaking.has(release.commit))
        expect({ release: release.commit, mix: release.mix }).toEqual({
          release: release.commit,
          mix: expect.stringMatching(/^no\b/),
        });
      else expect(release.mix).toMatch(/^(yes|no|first)\b/);
    }
  });
});
