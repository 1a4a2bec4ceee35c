import { parse as legacyParse } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_ALLOWED_HOSTS } from '../config.js';
import { checkedPushEndpoint, hostAllowed } from './push-endpoint.js';

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

  it('allows a port only where an allowed entry names it', () => {
    expect(hostAllowed('127.0.0.1', ['127.0.0.1:8443'], '8443')).toBe(true);
    expect(hostAllowed('127.0.0.1', ['127.0.0.1:8443'], null)).toBe(false);
    expect(hostAllowed('127.0.0.1', ['127.0.0.1'], '8443')).toBe(false);
    expect(checkedPushEndpoint('https://127.0.0.1:8443/p', ['127.0.0.1:8443'])).toBe(
      'https://127.0.0.1:8443/p',
    );
    expect(checkedPushEndpoint('https://127.0.0.1:8444/p', ['127.0.0.1:8443'])).toBeNull();
  });
});
