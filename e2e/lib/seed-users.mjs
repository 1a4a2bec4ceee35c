// Seeds users with the server's own create-user code, all in one process (e2e/lib/server.ts seedUsers): the
// users' arguments come as JSON in SEED_USERS, their uids go to stdout as one JSON line.
import { createUsersFromArgs } from '../../server/dist/scripts/create-user.js';

console.log(
  JSON.stringify(await createUsersFromArgs(JSON.parse(process.env.SEED_USERS ?? '[]'), process.env)),
);
