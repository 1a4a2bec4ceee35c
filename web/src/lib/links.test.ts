import { describe, expect, it } from 'vitest';
import { splitLinks } from './links';

describe('splitLinks', () => {
  it('keeps plain text as one text part', () => {
    expect(splitLinks('こんにちは')).toEqual([{ kind: 'text', text: 'こんにちは' }]);
    expect(splitLinks('')).toEqual([]);
  });

  it('turns http and https URLs into links', () => {
    expect(splitLinks('詳細は https://example.jp/a?b=1#c をご覧ください')).toEqual([
      { kind: 'text', text: '詳細は ' },
      { kind: 'link', text: 'https://example.jp/a?b=1#c', href: 'https://example.jp/a?b=1#c' },
      { kind: 'text', text: ' をご覧ください' },
    ]);
    expect(splitLinks('http://a.example')).toEqual([
      { kind: 'link', text: 'http://a.example', href: 'http://a.example' },
    ]);
  });

  it('ends a URL at Japanese punctuation and sentence punctuation', () => {
    expect(splitLinks('こちら→https://example.jp/x。ありがとう')).toEqual([
      { kind: 'text', text: 'こちら→' },
      { kind: 'link', text: 'https://example.jp/x', href: 'https://example.jp/x' },
      { kind: 'text', text: '。ありがとう' },
    ]);
    expect(splitLinks('(see https://example.com/page).')).toEqual([
      { kind: 'text', text: '(see ' },
      { kind: 'link', text: 'https://example.com/page', href: 'https://example.com/page' },
      { kind: 'text', text: ').' },
    ]);
  });

  it('keeps a bracket that belongs to the URL', () => {
    const url = 'https://ja.wikipedia.org/wiki/縁_(曲)';
    expect(splitLinks(`${url}, と`)[0]).toEqual({ kind: 'link', text: url, href: url });
  });

  it('never makes links of other schemes or markup', () => {
    expect(splitLinks('javascript:alert(1) <b>x</b> ftp://example.com')).toEqual([
      { kind: 'text', text: 'javascript:alert(1) <b>x</b> ftp://example.com' },
    ]);
    expect(splitLinks('https://')).toEqual([{ kind: 'text', text: 'https://' }]);
  });

  it('finds several links on several lines', () => {
    const parts = splitLinks('a https://x.example\nb http://y.example/p');
    expect(parts.filter((part) => part.kind === 'link').map((part) => part.text)).toEqual([
      'https://x.example',
      'http://y.example/p',
    ]);
    expect(parts.map((part) => part.text).join('')).toBe('a https://x.example\nb http://y.example/p');
  });
});
