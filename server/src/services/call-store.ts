import type { Redis } from 'ioredis';

/** One voice call as every instance sees it (product.md §17.6). Plain JSON, so Redis can hold it. */
export interface CallState {
  id: string;
  caller: number;
  /** The socket that placed the call: the call's frames for the caller go to it alone. */
  callerSocket: string;
  /** Who was called first. */
  callee: number;
  /** The male member of the call (whose desk talk gets the record). */
  memberId: number;
  /** Everyone being rung now (the callee, and after escalation other staff); empty once answered. */
  ringing: number[];
  answeredBy: number | null;
  answerSocket: string | null;
  /** ms since epoch */
  startedAt: number;
  answeredAt: number | null;
  escalated: boolean;
}

/** A call as read, with the text it was read as (what a later `swap` compares against). */
export interface StoredCall {
  call: CallState;
  raw: string;
}

/**
 * Who is in which call, shared by every instance: per user the id of their call (so a second call finds
 * them busy), per call its state. Changes are compare-and-swap, so when two staff members answer at once,
 * one wins.
 */
export interface CallStore {
  /** Marks `uid` as in call `callId`; false when they are in another call already. */
  claim(uid: number, callId: string): Promise<boolean>;
  /** Frees `uid` if they are still in `callId`. */
  release(uid: number, callId: string): Promise<void>;
  callOf(uid: number): Promise<string | null>;
  load(callId: string): Promise<StoredCall | null>;
  /** Writes `next` (null: deletes) if the call still reads `expected` (null: does not exist); true if so. */
  swap(callId: string, expected: string | null, next: CallState | null): Promise<boolean>;
  close(): Promise<void>;
}

/** A call's records are dropped after this even if no instance ends it (one that crashed mid-call). */
export const CALL_RECORD_TTL_MS = 6 * 60 * 60 * 1000;

export class InProcessCallStore implements CallStore {
  private readonly users = new Map<number, string>();
  private readonly calls = new Map<string, string>();

  async claim(uid: number, callId: string): Promise<boolean> {
    const current = this.users.get(uid);
    if (current !== undefined && current !== callId) return false;
    this.users.set(uid, callId);
    return true;
  }

  async release(uid: number, callId: string): Promise<void> {
    if (this.users.get(uid) === callId) this.users.delete(uid);
  }

  async callOf(uid: number): Promise<string | null> {
    return this.users.get(uid) ?? null;
  }

  async load(callId: string): Promise<StoredCall | null> {
    const raw = this.calls.get(callId);
    return raw === undefined ? null : { call: JSON.parse(raw) as CallState, raw };
  }

  async swap(callId: string, expected: string | null, next: CallState | null): Promise<boolean> {
    if ((this.calls.get(callId) ?? null) !== expected) return false;
    if (next) this.calls.set(callId, JSON.stringify(next));
    else this.calls.delete(callId);
    return true;
  }

  async close(): Promise<void> {}
}

const CLAIM = `local current = redis.call('GET', KEYS[1])
if current and current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;
// ARGV[1]: the expected text ('' for none); ARGV[2]: the next ('' deletes).
const SWAP = `local current = redis.call('GET', KEYS[1]) or ''
if current ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1`;

/** The same in Redis, so a call placed through one instance is known to all (product.md §20). */
export class RedisCallStore implements CallStore {
  constructor(private readonly redis: Redis) {}

  async claim(uid: number, callId: string): Promise<boolean> {
    return Number(await this.redis.eval(CLAIM, 1, userKey(uid), callId, CALL_RECORD_TTL_MS)) === 1;
  }

  async release(uid: number, callId: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, userKey(uid), callId);
  }

  async callOf(uid: number): Promise<string | null> {
    return this.redis.get(userKey(uid));
  }

  async load(callId: string): Promise<StoredCall | null> {
    const raw = await this.redis.get(callKey(callId));
    return raw === null ? null : { call: JSON.parse(raw) as CallState, raw };
  }

  async swap(callId: string, expected: string | null, next: CallState | null): Promise<boolean> {
    const result = await this.redis.eval(
      SWAP,
      1,
      callKey(callId),
      expected ?? '',
      next ? JSON.stringify(next) : '',
      CALL_RECORD_TTL_MS,
    );
    return Number(result) === 1;
  }

  async close(): Promise<void> {}
}

const userKey = (uid: number) => `enishi:call-user:${uid}`;
const callKey = (callId: string) => `enishi:call:${callId}`;
