import type { ApplicationRow } from '@enishi/contract';
import type { ApplicationRecord } from '../db/schema.js';

export function presentApplication(application: ApplicationRecord): ApplicationRow {
  return {
    id: application.id,
    type: application.type,
    name: application.name,
    age: application.age,
    email: application.email,
    tel: application.tel,
    created_at: application.createdAt.toISOString(),
    handled: application.handledAt !== null,
    member_uid: application.memberId,
  };
}
