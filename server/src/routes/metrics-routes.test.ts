import { readFileSync } from 'node:fs';
import webPush from 'web-push';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSharedState } from '../composition/shared-state.js';
import { PushQueue, PUSH_DELIVERY } from '../services/push-queue.js';
import { PushReceiver } from '../test/push-receiver.js';
import { testRedisUrl } from '../test/redis.js';
import { admin, connect, ctx, man, manDesk, say, ssid, useChatClub } from '../test/chat-club.js';
import { is } from '../test/call-club.js';

/* GET /metrics (product.md §10.3): who may read it, and that what it shows moves with what happens. */

const TOKEN = 'metrics-token-0123456789abcdef';
/** This file's Redis database (each Redis test file has its own). */
const REDIS_DB = 3;

useChatClub();
let scraper: FastifyInstance;

beforeAll(async () => {
  // Same database and the process's one registry; only this app serves /metrics.
  scraper = await ctx.buildApp({ METRICS_TOKEN: TOKEN });
});

async function scrape(): Promise<string> {
  const reply = await scraper.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(reply.statusCode).toBe(200);
  return reply.body;
}

/** The value of one series (`name{labels}` exactly as Prometheus text writes it); 0 when absent. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((each) => each.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('GET /metrics', () => {
  it('is not there without METRICS_TOKEN', async () => {
    const reply = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(reply.statusCode).toBe(404);
    expect(reply.body).not.toContain('enishi_');
  });

  it('answers only the configured bearer token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcd', `Basic ${TOKEN}`, TOKEN]) {
      const reply = await scraper.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(reply.statusCode, String(authorization)).toBe(401);
      expect(reply.body).not.toContain('enishi_');
    }
    const reply = await scraper.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    // Event-loop lag and the process figures come with prom-client's defaults.
    expect(reply.body).toMatch(/^enishi_nodejs_eventloop_lag_seconds \d/m);
    expect(reply.body).toMatch(/^enishi_queue_depth\{queue="message_writer"\} \d/m);
    expect(reply.body).toMatch(/^enishi_queue_depth\{queue="database"\} \d/m);
    expect(reply.body).toMatch(/^enishi_queue_depth\{queue="images"\} \d/m);
  });

  it('has every series the Grafana dashboard in deploy/ draws', async () => {
    const dashboard = readFileSync(
      new URL('../../../deploy/grafana-dashboard.json', import.meta.url),
      'utf8',
    );
    const names = new Set(dashboard.match(/enishi_[a-z0-9_]+/g));
    expect(names.size).toBeGreaterThan(10);
    const text = await scrape();
    for (const name of names) expect(text, name).toMatch(new RegExp(`^(# TYPE )?${name}[ {]`, 'm'));
  });

  it('counts a real message: stored, delivered to each socket, its latency, and the open sockets', async () => {
    const before = await scrape();
    const sender = await connect(ssid.taro!);
    const staff = await connect(ssid.admin!);
    const during = await scrape();
    expect(value(during, 'enishi_sockets_open') - value(before, 'enishi_sockets_open')).toBe(2);

    await say(sender, manDesk, 'メトリクスの確認です');
    await staff.take(is('message', (frame) => frame.message === 'メトリクスの確認です'));
    const after = await scrape();
    expect(value(after, 'enishi_messages_stored_total') - value(before, 'enishi_messages_stored_total')).toBe(
      1,
    );
    // The sender's echo and the staff member's copy.
    expect(
      value(after, 'enishi_messages_delivered_total') - value(before, 'enishi_messages_delivered_total'),
    ).toBe(2);
    expect(
      value(after, 'enishi_delivery_latency_seconds_count') -
        value(before, 'enishi_delivery_latency_seconds_count'),
    ).toBe(2);
    expect(value(after, 'enishi_delivery_latency_seconds_bucket{le="5"}')).toBeGreaterThanOrEqual(2);
    expect(value(after, 'enishi_queue_depth{queue="message_writer"}')).toBe(0);

    const closed = Promise.all([sender.closed, staff.closed]);
    sender.ws.close();
    staff.ws.close();
    await closed;
    // The server sees the close a moment after the client: wait for the gauge, bounded.
    await expect
      .poll(async () => value(await scrape(), 'enishi_sockets_open'), { timeout: 5000, interval: 20 })
      .toBe(value(before, 'enishi_sockets_open'));
  });

  it('counts HTTP requests by route pattern and status, never by raw URL', async () => {
    const loginSeries = 'enishi_http_requests_total{method="POST",route="/api/login",status="200"}';
    const before = await scrape();
    await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { id: admin.loginId, password: admin.password },
    });
    const media = await ctx.app.inject({ method: 'GET', url: '/media/987654321?e=1&s=secret-signature' });
    const mediaSeries = `enishi_http_requests_total{method="GET",route="/media/:id",status="${media.statusCode}"}`;
    const after = await scrape();
    expect(value(after, loginSeries) - value(before, loginSeries)).toBe(1);
    expect(value(after, mediaSeries) - value(before, mediaSeries)).toBe(1);
    expect(after).not.toContain('987654321');
    expect(after).not.toContain('secret-signature');
  });

  it('counts calls by outcome', async () => {
    const series = 'enishi_calls_total{outcome="cancelled"}';
    const before = await scrape();
    const caller = await connect(ssid.admin!);
    const callee = await connect(ssid.taro!);
    caller.send({ type: 'calling', to: man.uid });
    await callee.take(is('calling'));
    caller.send({ type: 'cancelCall', to: man.uid });
    await callee.take(is('cancelCall'));
    const after = await scrape();
    expect(value(after, series) - value(before, series)).toBe(1);
  });
});

describe('push and Redis figures', () => {
  let receiver: PushReceiver;
  beforeAll(async () => {
    receiver = await PushReceiver.start();
  });
  afterAll(() => receiver.close());

  it('counts push failures by status and the queue length', async () => {
    const series = 'enishi_push_failures_total{status="500"}';
    const keys = webPush.generateVAPIDKeys();
    const errors: unknown[] = [];
    const queue = new PushQueue({
      keys: async () => keys,
      subject: 'mailto:ops@enishi.invalid',
      onGone: async () => {},
      onError: (error) => errors.push(error),
      ca: receiver.ca,
      allowedHosts: [receiver.allowedHost],
      maxAttempts: 2,
      backoffMs: 1,
    });
    const subscriber = receiver.subscriber('failing');
    receiver.answer('failing', { status: 500 }, { status: 500 });
    const before = await scrape();
    const { endpoint, keys: subscriberKeys } = subscriber.toJSON();
    queue.enqueue({
      subscription: { endpoint, userId: 1, ...subscriberKeys },
      payload: '{}',
      delivery: PUSH_DELIVERY.message,
    });
    expect(
      value(await scrape(), 'enishi_push_queue_length') - value(before, 'enishi_push_queue_length'),
    ).toBe(1);
    await queue.idle();
    const after = await scrape();
    expect(value(after, series) - value(before, series)).toBe(2);
    expect(value(after, 'enishi_push_queue_length')).toBe(value(before, 'enishi_push_queue_length'));
    expect(errors).toHaveLength(1);
  });

  it('shows whether the Redis connections are up', async () => {
    const shared = await connectSharedState(testRedisUrl(REDIS_DB), () => {});
    const up = await scrape();
    for (const connection of ['commands', 'publisher', 'subscriber']) {
      expect(value(up, `enishi_redis_connected{connection="${connection}"}`), connection).toBe(1);
    }
    await shared.close();
    // The connection closes just after QUIT is answered.
    await expect
      .poll(async () => value(await scrape(), 'enishi_redis_connected{connection="commands"}'), {
        timeout: 5000,
        interval: 20,
      })
      .toBe(0);
  });
});
