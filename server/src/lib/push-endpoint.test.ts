import { parse as legacyParse } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_ALLOWED_HOSTS } from '../config-env.js';
import { checkedPushEndpoint, hostAllowed, listedAddresses } from './push-endpoint.js';

const allowed = DEFAULT_PUSH_ALLOWED_HOSTS;

describe('push endpoints: the URL checked is the URL posted to', () => {
  it('accepts the push services’ own endpoints as they are', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91bH-x_y',
      'https://web.push.apple.com/QGdVhK9-abc',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD%2bQx',
      'https://fcm.googleapis.com:443/fcm/send/x',
      'https://FCM.googleapis.com/fcm/send/x',
    ]) {
      expect(checkedPushEndpoint(endpoint, allowed), endpoint).toBe(endpoint);
    }
  });

  it.each([
    // Percent-encoding in the host: url.parse (what web-push posts with) reads 127.0.0.2, URL a subdomain.
    'https://127.0.0.2%2e.notify.windows.com/x',
    // ...or the bare name `fcm`.
    'https://fcm%2egoogleapis%2ecom/x',
    // Another port on an allowed host.
    'https://fcm.googleapis.com:6379/x',
    'https://fcm.googleapis.com:80/x',
    'https://fcm.googleapis.com:0443/x',
    // User info, in every spelling.
    'https://user@fcm.googleapis.com/x',
    'https://user:pass@fcm.googleapis.com/x',
    'https://127.0.0.2@fcm.googleapis.com/x',
    'https://fcm.googleapis.com@127.0.0.2/x',
    'https://fcm.googleapis.com%40127.0.0.2/x',
    'https://fcm.googleapis.com\\@127.0.0.2/x',
    'https://fcm.googleapis.com\\.evil.example/x',
    // Not https, not a known service, not plain.
    'http://fcm.googleapis.com/x',
    'https://attacker.example/x',
    'https://notify.windows.com/x',
    'https://fcm.googleapis.com./x',
    'https://fcm.googleapis.com/x y',
    'https://fcm.googleapis.com/x\n',
    'https://[::1]/x',
    'https://0x7f000001/x',
    ' https://fcm.googleapis.com/x',
    'HTTPS://fcm.googleapis.com/x',
  ])('refuses %j', (endpoint) => {
    expect(checkedPushEndpoint(endpoint, allowed)).toBeNull();
  });

  it('what it accepts, url.parse and URL read as the same host and port', () => {
    const endpoint = 'https://wns2-par02p.notify.windows.com/w/?token=a%2fb';
    expect(checkedPushEndpoint(endpoint, allowed)).toBe(endpoint);
    expect(legacyParse(endpoint).host).toBe(new URL(endpoint).host);
    // The bypass as the two parsers saw it before: they disagree, so it could never pass now.
    const bypass = 'https://127.0.0.2%2e.notify.windows.com/x';
    expect(legacyParse(bypass).hostname).not.toBe(new URL(bypass).hostname);
  });

  // The plain form leaves little for the parsers to read differently, but not nothing: each case below passes
  // the plain form and is refused only because the two parsers (or one of them) do not read it as written.
  it('refuses what passes the plain form but a parser reads otherwise', () => {
    // url.parse gives up on a host over 255 characters and reads no host at all (web-push would post to
    // localhost); URL reads the name.
    const long = `https://${'a'.repeat(250)}.notify.windows.com/x`;
    expect(legacyParse(long).hostname).toBe('');
    expect(checkedPushEndpoint(long, allowed)).toBeNull();
    // A name that URL reads as an address (127.0.0.1), even when an entry lists the name as written.
    expect(checkedPushEndpoint('https://127.1:8443/p', ['127.1:8443'])).toBeNull();
    expect(checkedPushEndpoint('https://2130706433/p', ['2130706433'])).toBeNull();
    // An address URL refuses to read at all.
    expect(checkedPushEndpoint('https://1.2.3.256/p', ['1.2.3.256'])).toBeNull();
  });

  it('accepts an endpoint without a path, and a long name under an allowed one', () => {
    expect(checkedPushEndpoint('https://fcm.googleapis.com', allowed)).toBe('https://fcm.googleapis.com');
    const long = `https://${'a'.repeat(60)}.notify.windows.com/x`;
    expect(checkedPushEndpoint(long, allowed)).toBe(long);
  });

  it('allows a port only where an allowed entry names it', () => {
    expect(hostAllowed('127.0.0.1', ['127.0.0.1:8443'], '8443')).toBe(true);
    expect(hostAllowed('127.0.0.1', ['127.0.0.1:8443'], null)).toBe(false);
    expect(hostAllowed('127.0.0.1', ['127.0.0.1'], '8443')).toBe(false);
    expect(checkedPushEndpoint('https://127.0.0.1:8443/p', ['127.0.0.1:8443'])).toBe(
      'https://127.0.0.1:8443/p',
    );
    expect(checkedPushEndpoint('https://127.0.0.1:8444/p', ['127.0.0.1:8443'])).toBeNull();
  });

  it.each([
    'evilnotify.windows.com',
    'notifywindows.com',
    'xnotify.windows.com',
    'notify.windows.com',
    'notify.windows.com.evil.example',
    'a.notify.windows.com.evil.example',
    'notify.windows.comm',
    'evilweb.push.apple.com',
    'web.push.apple.com.evil.example',
  ])('a wildcard matches whole labels only: refuses %s', (host) => {
    expect(hostAllowed(host, allowed)).toBe(false);
    expect(checkedPushEndpoint(`https://${host}/x`, allowed)).toBeNull();
  });

  it('a wildcard needs a label before its dot', () => {
    expect(hostAllowed('.notify.windows.com', allowed)).toBe(false);
    expect(hostAllowed('a.notify.windows.com', allowed)).toBe(true);
  });

  it.each(['a.notify.windows.com', 'wns2-par02p.notify.windows.com', 'a.b.notify.windows.com'])(
    'a wildcard matches names under it: accepts %s',
    (host) => {
      expect(checkedPushEndpoint(`https://${host}/x`, allowed)).toBe(`https://${host}/x`);
    },
  );

  it('lists as addresses only the entries written as one, with their port', () => {
    expect([
      ...listedAddresses(['127.0.0.1:8443', '10.0.0.7', '*.notify.windows.com', 'localhost:8443']),
    ]).toEqual(['127.0.0.1:8443', '10.0.0.7:443']);
  });
});
