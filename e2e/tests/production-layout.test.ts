import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ja } from '@enishi/contract';
import { logInAs, sessionId } from '../lib/admin.js';
import { chromiumArgs, headlessShellPath, phone } from '../lib/browser.js';
import { leaksIn, type Secret } from '../lib/secrets.js';
import { repoRoot } from '../lib/server.js';
import { sendComment, timeline } from '../lib/talk.js';

/*
 * The production layout of docs/operations.md, started by scripts/production-layout.mjs on this machine:
 * nginx, coturn and the certificate installed by deploy/install-edge.sh exactly as shipped, in a sandbox with
 * their real ports (nginx's 443 bridged out to a free port here), two instances, a fresh PostgreSQL database,
 * Redis. A member and the owner log in and chat through https, the instances' metrics count it, nginx's access
 * log and the instance's log name the same request id, and the logs hold none of the secrets; then the script
 * takes it all down.
 */

interface Layout {
  origin: string;
  owner: { id: string; password: string };
  metricsToken: string;
  instances: string[];
  dir: string;
}

const dir = mkdtempSync(join(tmpdir(), 'enishi-layout-test-'));
let script: ChildProcess;
let layout: Layout;
let browser: Browser;

beforeAll(async () => {
  script = spawn(process.execPath, [join(repoRoot, 'scripts/production-layout.mjs')], {
    env: { ...process.env, LAYOUT_DIR: dir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: script.stdout! });
  // Two instances (migrations of a new database first), nginx and coturn: a minute on a busy 2-core machine.
  layout = await new Promise<Layout>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('LAYOUT_READY ')) resolve(JSON.parse(line.slice('LAYOUT_READY '.length)) as Layout);
    });
    script.once('exit', (code) => reject(new Error(`production-layout.mjs exited (${code}) before ready`)));
  });
  browser = await chromium.launch({
    executablePath: headlessShellPath,
    // The layout's certificate is self-signed.
    args: [...chromiumArgs, '--ignore-certificate-errors'],
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (script && script.exitCode === null) {
    script.kill('SIGTERM');
    await once(script, 'exit');
  }
  rmSync(dir, { recursive: true, force: true });
}, 40_000);

async function phoneAt(origin: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: origin,
    viewport: phone,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    serviceWorkers: 'block',
    ignoreHTTPSErrors: true,
  });
  await context.addInitScript('globalThis.__name = f => f');
  return { context, page: await context.newPage() };
}

/** One series' total over both instances, read with the metrics token straight from each (not via nginx). */
async function total(series: string): Promise<number> {
  let sum = 0;
  for (const instance of layout.instances) {
    const reply = await fetch(`${instance}/metrics`, {
      headers: { authorization: `Bearer ${layout.metricsToken}` },
    });
    expect(reply.status).toBe(200);
    const line = (await reply.text()).split('\n').find((each) => each.startsWith(`${series} `));
    sum += line ? Number(line.slice(series.length + 1)) : 0;
  }
  return sum;
}

test('a member and the owner chat through https; metrics count it; the logs keep no secret', async () => {
  const { origin } = layout;
  expect(origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const stored = await total('enishi_messages_stored_total');

  // The owner (made from OWNER_ID / OWNER_PASSWORD) registers a member, through nginx.
  const office = await phoneAt(origin);
  await logInAs(office.page, layout.owner);
  const member = { id: `layout-${Date.now().toString(36)}`, password: 'Layout-man.1', name: '本番 太郎' };
  const added = await office.page.request.post('/api/adduser', {
    data: {
      ssid: await sessionId(office.page),
      id: member.id,
      name: member.name,
      pass: member.password,
      rank: 2,
      role: 101,
      introducer: '',
    },
  });
  expect(added.status(), await added.text()).toBe(200);
  // Answered by an instance behind nginx: its request id and security headers come through.
  const requestId = added.headers()['x-request-id'];
  expect(requestId).toMatch(/^[0-9a-f]{32}$/);
  expect(added.headers()['strict-transport-security']).toBeDefined();

  const man = await phoneAt(origin);
  await logInAs(man.page, member);
  await man.page.goto('/talkrooms/staff');
  await man.page.waitForURL(/\/talk\/staff\/\d+$/);
  await timeline(man.page).waitFor();
  const question = `httpsで届きますか ${Date.now().toString(36)}`;
  await sendComment(man.page, question);

  await office.page.goto('/talkrooms/men');
  await office.page.getByRole('link', { name: member.name }).click();
  await office.page.waitForURL(/\/talk\/(staff\/)?\d+$/);
  await timeline(office.page).getByText(question).waitFor();
  const answer = `はい、届いています ${Date.now().toString(36)}`;
  await sendComment(office.page, answer);
  // Live, over the socket through nginx's /ws/ (the member's page was not reloaded).
  await timeline(man.page).getByText(answer).waitFor();
  await man.page.getByRole('button', { name: ja.talk.send, exact: true }).waitFor();

  expect(await total('enishi_messages_stored_total')).toBe(stored + 2);
  expect(await total('enishi_sockets_open')).toBeGreaterThanOrEqual(2);

  const secrets: Secret[] = [
    { field: 'password', value: layout.owner.password },
    { field: 'password', value: member.password },
    { field: 'session', value: await sessionId(office.page) },
    { field: 'session', value: await sessionId(man.page) },
    { field: 'message', value: question },
    { field: 'message', value: answer },
  ];
  await office.context.close();
  await man.context.close();

  script.kill('SIGTERM');
  const [code] = (await once(script, 'exit')) as [number | null];
  expect(code).toBe(0);
  const logs = readdirSync(dir)
    .filter((file) => file.startsWith('instance-') || file.startsWith('nginx'))
    .map((file) => readFileSync(join(dir, file), 'utf8'))
    .join('\n');
  expect(logs).toContain('"msg":"request"');
  // One request, one id: nginx's access line (rid=, its $request_id) and the instance's reqId.
  const access = readFileSync(join(dir, 'nginx-enishi.access.log'), 'utf8');
  expect(access.split('\n').find((line) => line.includes(`rid=${requestId} `))).toMatch(
    /"POST \/api\/adduser HTTP\/[\d.]+" 200 /,
  );
  expect(logs).toMatch(new RegExp(`"reqId":"${requestId}".*"path":"/api/adduser"`));
  expect(leaksIn(logs, secrets)).toEqual([]);
}, 60_000);
