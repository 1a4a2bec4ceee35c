import type { TestProject } from 'vitest/node';
import { freePort } from '../../server/src/test/process.js';
import { seedUsers, serverEnv, startServer } from './server.js';
import { people } from './users.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    uids: Record<string, number>;
  }
}

/** One real server for the whole browser suite, on a fresh embedded database seeded with the club. */
export default async function setup(project: TestProject) {
  const port = await freePort();
  const env = serverEnv(port, { OWNER_ID: people.owner.id, OWNER_PASSWORD: people.owner.password });
  const members = [people.admin, people.staff, people.man, people.woman];
  const uids = seedUsers(env, members);
  const server = await startServer(env);
  project.provide('baseURL', server.baseURL);
  project.provide('uids', uids);
  return async () => {
    await server.stop();
  };
}
