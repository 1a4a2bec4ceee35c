import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

/**
 * An environment file (/etc/enishi/enishi.env) as the service reads it. systemd's EnvironmentFile= and
 * `node --env-file` (the manual backup, docs/operations.md) agree on `KEY=value`, quoted values and JSON
 * values such as ICE_SERVERS, but not on everything: an unquoted `#` ends the value for Node and not for
 * systemd, and an unquoted backslash is an escape for systemd only. Such lines are reported, not guessed.
 */
export interface EnvironmentFile {
  values: Record<string, string>;
  /** Lines the two readers would read differently, each naming its variable. */
  problems: string[];
}

export function readEnvironmentFile(file: string): EnvironmentFile {
  const text = readFileSync(file, 'utf8');
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || /^["']/.test(match[2]!)) return;
    const [, name, value] = match;
    if (/[#\\]/.test(value!)) {
      problems.push(
        `${name} (line ${index + 1}): an unquoted value with # or \\ is read differently by systemd and by node --env-file: put it in double quotes`,
      );
    }
  });
  return { values: parseEnv(text) as Record<string, string>, problems };
}
