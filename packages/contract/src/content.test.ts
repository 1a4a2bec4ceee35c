import * as jaMember from './ja-member.js';
import { describe, expect, it } from 'vitest';
import { BannerUrl, BroadcastSendBody, NewsUpdateBody, storedImageId } from './content.js';
import { contentTypeOfRole } from './permissions.js';
import { ja } from './ja.js';

describe('BannerUrl', () => {
  it('takes http and https links only', () => {
    expect(BannerUrl.parse(' https://example.com/a?b=1 ')).toBe('https://example.com/a?b=1');
    expect(BannerUrl.parse('http://example.jp')).toBe('http://example.jp');
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      'ftp://example.com',
      '//example.com',
      'https://',
    ]) {
      expect(BannerUrl.safeParse(bad).error?.issues[0]?.message).toBe(jaMember.banners.badUrl);
    }
    expect(BannerUrl.safeParse('').error?.issues[0]?.message).toBe(jaMember.banners.urlRequired);
  });

  it('refuses a link with a user name or password in it', () => {
    for (const bad of [
      'https://user:pass@example.com/',
      'http://user@example.com',
      'https://:pw@example.com',
    ]) {
      expect(BannerUrl.safeParse(bad).error?.issues[0]?.message).toBe(jaMember.banners.urlWithCredentials);
    }
    expect(BannerUrl.parse('https://example.com/@user')).toBe('https://example.com/@user');
  });
});

describe('news images on update', () => {
  it('takes stored image URLs or ids and new data URLs, and finds the id in a URL', () => {
    const url = '/media/content/abcdefghijklmnopqrstuv?e=1700000000&s=xyz-_';
    const parsed = NewsUpdateBody.parse({
      ssid: 's',
      id: 1,
      title: 't',
      body: 'b',
      type: '2',
      images: [url, 'abcdefghijklmnopqrstuv', 'data:image/png;base64,iVBORw0KGgo='],
    });
    expect(parsed.type).toBe(2);
    expect(storedImageId(url)).toBe('abcdefghijklmnopqrstuv');
    expect(
      NewsUpdateBody.safeParse({ ssid: 's', id: 1, title: 't', body: 'b', type: 1, images: ['/etc/passwd'] })
        .success,
    ).toBe(false);
  });
});

describe('bulk send body', () => {
  it('needs recipients and a text or an image; the original client’s id is accepted and ignored', () => {
    expect(
      BroadcastSendBody.parse({ ssid: 's', id: 9, users: ['3', 4], message: 'こんにちは' }).users,
    ).toEqual([3, 4]);
    expect(
      BroadcastSendBody.safeParse({ ssid: 's', users: [], message: 'x' }).error?.issues[0]?.message,
    ).toBe(jaMember.broadcast.noRecipients);
    expect(
      BroadcastSendBody.safeParse({ ssid: 's', users: [1], message: ' ' }).error?.issues[0]?.message,
    ).toBe(ja.talk.emptyComment);
  });

  it('maps roles to their group', () => {
    expect([101, 201, 1, 6].map(contentTypeOfRole)).toEqual([1, 2, null, null]);
  });
});
