import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './process.js';

/*
 * docs/releases.md as tests read it: its table of releases and its table of migrations. The page is the
 * operator's; the tests only check it says what the repository holds.
 */

export interface Release {
  /** The release's commit, 7 hex digits. */
  commit: string;
  /** What the page says of running an instance of the release before it beside one of this (`yes …`/`no …`). */
  mix: string;
}

export interface ListedMigration {
  /** e.g. `0005_push`. */
  tag: string;
  /** The release that brought it: a commit of the release table, or `next` while it has not landed. */
  release: string;
}

export const RELEASES_DOC = path.join(REPO_ROOT, 'docs/releases.md');

/** The table rows (cells, trimmed, backticks dropped) under the heading `## <heading>`. */
function tableUnder(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/releases.md has no section "${heading}"`);
  const rest = markdown.slice(start + heading.length + 5);
  const end = rest.indexOf('\n## ');
  return (end < 0 ? rest : rest.slice(0, end))
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
    .slice(1) // the header
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim().replaceAll('`', '')),
    );
}

export function readReleasesDoc(markdown = readFileSync(RELEASES_DOC, 'utf8')): {
  releases: Release[];
  migrations: ListedMigration[];
} {
  const releases = tableUnder(markdown, 'Releases').map((cells) => ({
    commit: cells[0]!,
    mix: cells[3]!,
  }));
  const migrations = tableUnder(markdown, 'Migrations').map((cells) => ({
    tag: cells[0]!,
    release: cells[1]!,
  }));
  return { releases, migrations };
}
