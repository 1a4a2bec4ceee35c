import type { EntryBody } from '@enishi/contract';
import { api } from '@/lib/api-client';

/** POST /api/entry {type, name, age, email, tel} -> {status: 'OK'}; any other reply is a failure. */
export function createEntry(body: EntryBody) {
  return api('entry', body, { public: true });
}
