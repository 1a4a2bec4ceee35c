import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { REPO_ROOT } from '../test/process.js';

/*
 * The backup and restore commands read the service's environment file with Node's own reader
 * (`node --env-file=/etc/enishi/enishi.env …`, docs/operations.md "Backups"): it must give every value of the
 * shipped file as systemd's EnvironmentFile= gives it to the instances, ICE_SERVERS' JSON with its quotes.
 */
describe('the environment file as the backup command reads it', () => {
  it('gives every value of deploy/enishi.env.example whole, as systemd reads it', () => {
    const file = path.join(REPO_ROOT, 'deploy/enishi.env.example');
    // systemd: KEY=VALUE a line, comments only at a line's start, an unquoted value as written (its quotes
    // and any # kept), surrounding blanks trimmed.
    const expected = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
      .map((line) => [line.slice(0, line.indexOf('=')).trim(), line.slice(line.indexOf('=') + 1).trim()]);
    expect(expected.length).toBeGreaterThan(10);

    const read = JSON.parse(
      execFileSync(
        process.execPath,
        [`--env-file=${file}`, '-e', 'console.log(JSON.stringify(process.env))'],
        {
          env: {},
        },
      ).toString(),
    ) as Record<string, string>;
    for (const [name, value] of expected) expect({ name, value: read[name!] ?? '' }).toEqual({ name, value });

    // And the server reads them: the ICE servers' JSON intact. (Recipients are the operator's to fill in.)
    const config = loadConfig({
      ...read,
      BACKUP_RECIPIENTS: 'age18cfgwlvuv3cp045gpxj46y0hvyxq6cy5y58zfz7tlwwps8q7ne3shy0kec',
    });
    expect(config.ice.servers[0]?.urls).toHaveLength(4);
  });
});
