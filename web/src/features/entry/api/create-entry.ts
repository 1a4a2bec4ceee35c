import { EntryReply, type EntryBody } from '@enishi/contract';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';

/** POST /api/entry {type, name, age, email, tel} -> {status: 'OK'}; any other reply is a failure. */
export function createEntry(body: EntryBody) {
  return apiCall('entry', body, { reply: EntryReply, public: true });
}

export function useCreateEntry() {
  return useMutation({ mutationFn: createEntry });
}
