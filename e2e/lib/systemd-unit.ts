import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';

/*
 * A shipped systemd unit read as systemd reads it, for tests that run its ExecStart under its own settings:
 * `key=value` lines of the [Service] section, each key possibly repeated.
 */
export interface ServiceUnit {
  /** Every value of a key, in order; `%i` left as written. */
  values(key: string): string[];
  /** The last value of a key (systemd: a later line overrides), or undefined. */
  last(key: string): string | undefined;
}

export function readServiceUnit(file: string): ServiceUnit {
  const entries: [string, string][] = [];
  let section = '';
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[')) {
      section = line;
      continue;
    }
    const equals = line.indexOf('=');
    if (section === '[Service]' && equals > 0) entries.push([line.slice(0, equals), line.slice(equals + 1)]);
  }
  const values = (key: string) => entries.filter(([name]) => name === key).map(([, value]) => value);
  return { values, last: (key) => values(key).at(-1) };
}

/** The calls of one `@set` as this machine's systemd lists them (`systemd-analyze syscall-filter`), nested sets expanded. */
export function expandSyscallSet(name: string, seen = new Set<string>()): Set<string> {
  const calls = new Set<string>();
  if (seen.has(name)) return calls;
  seen.add(name);
  const listing = execFileSync('systemd-analyze', ['syscall-filter', '--no-pager', name], {
    encoding: 'utf8',
  });
  for (const line of listing.split('\n').slice(1)) {
    const item = line.trim();
    if (item === '' || item.startsWith('#')) continue;
    if (item.startsWith('@')) for (const call of expandSyscallSet(item, seen)) calls.add(call);
    else calls.add(item);
  }
  return calls;
}

export interface SyscallPolicy {
  /** The calls allowed (SystemCallFilter= as an allow-list). */
  allow: string[];
  /** Every call systemd knows (@known): the others answer ENOSYS instead of the default action. */
  known: string[];
  /** SystemCallErrorNumber= as a number; null: the default action kills the process (SIGSYS). */
  errno: number | null;
}

/**
 * The unit's system-call filter as systemd builds it (systemd.exec(5)): SystemCallFilter= lines merge; the
 * first decides allow- or deny-list; in an allow-list a later `~` line takes calls away; an empty value resets.
 */
export function syscallPolicy(unit: ServiceUnit): SyscallPolicy {
  let allow: Set<string> | null = null;
  for (const value of unit.values('SystemCallFilter')) {
    if (value.trim() === '') {
      allow = null;
      continue;
    }
    const deny = value.startsWith('~');
    const calls = new Set<string>();
    for (const item of value.replace(/^~/, '').trim().split(/\s+/)) {
      const name = item.replace(/:.*$/, ''); // an `:errno` suffix only changes a deny-list's answer
      if (name.startsWith('@')) for (const call of expandSyscallSet(name)) calls.add(call);
      else calls.add(name);
    }
    if (allow === null && deny)
      throw new Error('a deny-list SystemCallFilter= is not what this test reproduces');
    if (allow === null) allow = calls;
    else if (deny) for (const call of calls) allow.delete(call);
    else for (const call of calls) allow.add(call);
  }
  if (allow === null) throw new Error('the unit declares no SystemCallFilter=');
  const errnoName = unit.last('SystemCallErrorNumber');
  let errno: number | null = null;
  if (errnoName && errnoName !== 'kill') {
    errno = /^\d+$/.test(errnoName)
      ? Number(errnoName)
      : ((constants.errno as Record<string, number>)[errnoName] ?? NaN);
    if (!Number.isInteger(errno)) throw new Error(`unknown SystemCallErrorNumber=${errnoName}`);
  }
  return { allow: [...allow].sort(), known: [...expandSyscallSet('@known')].sort(), errno };
}
