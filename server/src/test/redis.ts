/**
 * TEST_REDIS_URL (default the local Redis) with a database number of the caller's: each test file that
 * uses Redis takes its own, so counters and realtime channels (which name the database) never mix.
 */
export function testRedisUrl(db: number): string {
  const url = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  url.pathname = `/${db}`;
  return url.toString();
}
