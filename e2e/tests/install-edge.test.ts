import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DeploySandbox, installEdge } from '../../scripts/deploy-sandbox.mjs';
import { repoRoot } from '../lib/server.js';

/*
 * deploy/install-edge.sh as an installer (docs/operations.md, "nginx, coturn and certificates"), in a sandbox with
 * this machine's /etc and /var overlaid (scripts/deploy-sandbox.mjs): run again, it changes nothing an operator
 * set; refused by nginx -t, it leaves nginx's files as they were. tests/nginx.test.ts serves through what it
 * installs.
 */

const name = 'enishi.test';
const turnSecret = randomBytes(24).toString('base64');
let sandbox: DeploySandbox;

beforeAll(async () => {
  sandbox = await DeploySandbox.create();
  await installEdge(sandbox, { name, turnSecret });
});

afterAll(() => sandbox?.close());

describe('install-edge.sh', () => {
  test("again changes nothing, and never lowers an operator's larger limit", async () => {
    const nginxConf = () => sandbox.check('cat', ['/etc/nginx/nginx.conf']);
    const writeNginxConf = (text: string) =>
      sandbox.check('sh', ['-c', 'printf %s "$1" > /etc/nginx/nginx.conf', 'sh', text]);
    const installed = await nginxConf();
    expect(installed).toMatch(/^\s*worker_connections 16384;$/m);
    expect(installed).toMatch(/^worker_rlimit_nofile 20000;$/m);

    // An operator's own, larger value since the first install.
    const larger = installed.replace('worker_connections 16384;', 'worker_connections 50000;');
    await writeNginxConf(larger);
    try {
      const again = await installEdge(sandbox, { name, turnSecret });
      expect(again).toContain('worker_connections 50000 kept (at least 16384)');
      expect(again).toContain('worker_rlimit_nofile 20000 kept (at least 20000)');
      expect(await nginxConf()).toBe(larger);
    } finally {
      await writeNginxConf(installed);
    }
  });

  test('refused by nginx -t, leaves nginx.conf and the sites as they were', async () => {
    // nginx.conf, each enabled site and where it points, and Enishi's site file.
    const nginxFiles = () =>
      sandbox.check('sh', [
        '-c',
        'cat /etc/nginx/nginx.conf; for f in /etc/nginx/sites-enabled/*; do echo "$f -> $(readlink "$f")"; done; ' +
          'cat /etc/nginx/sites-available/enishi 2>/dev/null || echo "no enishi site"',
      ]);
    // As on a fresh Debian (no Enishi site, Debian's default enabled), with an operator's site nginx -t refuses.
    await sandbox.check('sh', [
      '-c',
      'rm -f /etc/nginx/sites-enabled/enishi /etc/nginx/sites-available/enishi && ' +
        'ln -sfn ../sites-available/default /etc/nginx/sites-enabled/default && ' +
        "printf 'server { listen 8099; no_such_directive on; }\\n' > /etc/nginx/sites-enabled/broken",
    ]);
    const before = await nginxFiles();
    expect(before).toContain('no enishi site');
    const { code, output } = await sandbox.run('sh', [join(repoRoot, 'deploy/install-edge.sh')], {
      env: { ...process.env, ENISHI_NAME: name },
    });
    expect(code).not.toBe(0);
    expect(output).toContain('install-edge: nginx -t failed (nginx.conf and the sites left as they were)');
    expect(await nginxFiles()).toBe(before);
  });
});
