import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_ALLOWED_HOSTS } from './config-env.js';
import { ConfigError, SERVER_ROOT, loadConfig } from './config.js';
import { hostAllowed } from './lib/push-endpoint.js';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.host).toBe('0.0.0.0');
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.publicOrigin).toBe('http://localhost:8080');
    expect(config.ownerId).toBe('owner');
    expect(config.ownerPassword).toBeUndefined();
    expect(config.webDist).toBe(path.resolve(SERVER_ROOT, '../web/dist'));
    expect(config.rateLimits.loginPerAccount).toEqual({ max: 100, windowMs: 60 * 60_000 });
    expect(config.rateLimits.loginPerAccountAddress).toEqual({ max: 5, windowMs: 5 * 60_000 });
    expect(config.rateLimits.loginPerAddress).toEqual({ max: 30, windowMs: 60_000 });
    expect(config.rateLimits.entryPerAddress).toEqual({ max: 10, windowMs: 3_600_000 });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATA_DIR: '/tmp/enishi',
      DATABASE_URL: 'postgres://u:p@db:5432/enishi',
      REDIS_URL: 'redis://cache:6379',
      PUBLIC_ORIGIN: 'https://enishi.example.jp/',
      OWNER_ID: 'boss-1',
      OWNER_PASSWORD: 'pa.ss?/-1',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/srv/web',
      LOGIN_ATTEMPTS_PER_ADDRESS: '1000',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/tmp/enishi',
      databaseUrl: 'postgres://u:p@db:5432/enishi',
      redisUrl: 'redis://cache:6379',
      publicOrigin: 'https://enishi.example.jp',
      ownerId: 'boss-1',
      ownerPassword: 'pa.ss?/-1',
      logLevel: 'warn',
      webDist: '/srv/web',
    });
    expect(config.rateLimits.loginPerAddress.max).toBe(1000);
  });

  it('derives PUBLIC_ORIGIN from PORT and treats empty variables as unset', () => {
    const config = loadConfig({ PORT: '8099', HOST: '', DATABASE_URL: '' });
    expect(config.publicOrigin).toBe('http://localhost:8099');
    expect(config.host).toBe('0.0.0.0');
    expect(config.databaseUrl).toBeUndefined();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://x'],
    ['PUBLIC_ORIGIN', 'localhost:8080'],
    ['PUBLIC_ORIGIN', 'https://example.jp/app'],
    ['OWNER_ID', 'not valid!'],
    ['OWNER_PASSWORD', 'has space'],
    ['LOG_LEVEL', 'loud'],
    ['LOGIN_FAILURES_PER_ACCOUNT', '0'],
  ])('refuses %s=%s with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`\\b${name}\\b`));
  });

  it('reads the push variables: both VAPID keys or neither, allowed hosts with wildcards', () => {
    const defaults = loadConfig({}).push;
    expect(defaults).toEqual({
      vapidKeys: null,
      subject: 'mailto:push@enishi.invalid',
      allowedHosts: DEFAULT_PUSH_ALLOWED_HOSTS,
    });
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://club.example' }).push.subject).toBe('https://club.example');
    const keys = { VAPID_PUBLIC_KEY: `B${'a'.repeat(86)}`, VAPID_PRIVATE_KEY: 'b'.repeat(43) };
    expect(loadConfig(keys).push.vapidKeys).toEqual({
      publicKey: keys.VAPID_PUBLIC_KEY,
      privateKey: 'b'.repeat(43),
    });
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: keys.VAPID_PUBLIC_KEY })).toThrow(ConfigError);
    expect(() => loadConfig({ VAPID_SUBJECT: 'http://club.example' })).toThrow(/VAPID_SUBJECT/);
    const hosts = loadConfig({ PUSH_ALLOWED_HOSTS: 'Push.Example, *.notify.example' }).push.allowedHosts;
    expect(hosts).toEqual(['push.example', '*.notify.example']);
    expect(hostAllowed('push.example', hosts)).toBe(true);
    expect(hostAllowed('wns2-par02p.notify.example', hosts)).toBe(true);
    expect(hostAllowed('notify.example', hosts)).toBe(false);
    expect(hostAllowed('evilnotify.example', hosts)).toBe(false);
    expect(hostAllowed('push.example.evil', hosts)).toBe(false);
  });

  it('does not echo secrets back', () => {
    expect(() => loadConfig({ OWNER_PASSWORD: 'bad secret' })).toThrow(/^(?!.*bad secret).*OWNER_PASSWORD/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/^(?!.*short).*METRICS_TOKEN/);
    expect(() => loadConfig({ BACKUP_PASSPHRASE: 'short' })).toThrow(/^(?!.*short").*BACKUP_PASSPHRASE/);
  });

  it('serves metrics only with a long enough METRICS_TOKEN', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(32) }).metricsToken).toBe('a'.repeat(32));
    expect(() => loadConfig({ METRICS_TOKEN: 'with space in the token' })).toThrow(/METRICS_TOKEN/);
  });

  it('reads the backup variables: no daily backups unless BACKUP_DIR is set, seven kept, at 03:30 in Tokyo', () => {
    expect(loadConfig({}).backup).toEqual({
      dir: null,
      keep: 7,
      recipients: [],
      plain: false,
      time: '03:30',
      timeZone: 'Asia/Tokyo',
      passphrase: undefined,
    });
    const recipients = [
      'age18cfgwlvuv3cp045gpxj46y0hvyxq6cy5y58zfz7tlwwps8q7ne3shy0kec',
      'age1eqmp0xjydgypjennf7zclc4jzg7ndwll3dk47u63gs6g99aqza2smm0jzf',
    ];
    expect(
      loadConfig({
        BACKUP_DIR: '/var/backups/enishi',
        BACKUP_KEEP: '30',
        BACKUP_RECIPIENTS: recipients.join(', '),
        BACKUP_TIME: '04:15',
        BACKUP_TIMEZONE: 'Europe/Berlin',
        BACKUP_PASSPHRASE: 'a long passphrase',
      }).backup,
    ).toEqual({
      dir: '/var/backups/enishi',
      keep: 30,
      recipients,
      plain: false,
      time: '04:15',
      timeZone: 'Europe/Berlin',
      passphrase: 'a long passphrase',
    });
    expect(() => loadConfig({ BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP/);
    expect(() => loadConfig({ BACKUP_TIME: '3:30' })).toThrow(/BACKUP_TIME/);
    expect(() => loadConfig({ BACKUP_TIMEZONE: 'Tokyo' })).toThrow(/BACKUP_TIMEZONE/);
    expect(() => loadConfig({ BACKUP_RECIPIENTS: 'AGE-SECRET-KEY-1ABC' })).toThrow(/BACKUP_RECIPIENTS/);
  });

  it('refuses daily backups that would not be encrypted, unless BACKUP_PLAIN=true says so', () => {
    expect(() => loadConfig({ BACKUP_DIR: '/var/backups/enishi' })).toThrow(
      /BACKUP_RECIPIENTS: daily backups .* BACKUP_PLAIN=true/,
    );
    expect(loadConfig({ BACKUP_DIR: '/var/backups/enishi', BACKUP_PLAIN: 'true' }).backup.plain).toBe(true);
  });

  it('keeps the key of second-factor secrets in DATA_DIR unless SECRETS_KEY_FILE names another', () => {
    expect(loadConfig({ DATA_DIR: '/var/lib/enishi' }).secretsKeyFile).toBe('/var/lib/enishi/secrets.key');
    expect(loadConfig({ SECRETS_KEY_FILE: '/etc/enishi/secrets.key' }).secretsKeyFile).toBe(
      '/etc/enishi/secrets.key',
    );
  });
});
