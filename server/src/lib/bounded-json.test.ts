import { describe, expect, it } from 'vitest';
import { checkJsonDepth, JsonBoundsError, leadingStringField, parseBoundedJson } from './bounded-json.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const bounds = { maxDepth: 64, maxBytes: 1024 * 1024 };

describe('parseBoundedJson', () => {
  it('parses JSON up to the depth and refuses one level more', () => {
    expect(parseBoundedJson(nested(64), bounds)).toBeInstanceOf(Array);
    expect(() => parseBoundedJson(nested(65), bounds)).toThrow(JsonBoundsError);
    expect(() => parseBoundedJson(`{"a":${nested(65)}}`, bounds)).toThrow(JsonBoundsError);
  });

  it('refuses 30,000 levels at once, without recursing', () => {
    const started = performance.now();
    expect(() => parseBoundedJson(nested(30_000), bounds)).toThrow(JsonBoundsError);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ a: '['.repeat(100), b: 'say \\"[[[[\\"', c: '\\' });
    expect(parseBoundedJson(text, bounds)).toEqual(JSON.parse(text));
  });

  it('refuses text over maxBytes counted in UTF-8', () => {
    expect(() => parseBoundedJson(JSON.stringify('あ'.repeat(400)), { maxDepth: 4, maxBytes: 1000 })).toThrow(
      JsonBoundsError,
    );
    expect(parseBoundedJson(JSON.stringify('a'.repeat(400)), { maxDepth: 4, maxBytes: 1000 })).toBe(
      'a'.repeat(400),
    );
  });

  it('leaves malformed JSON to JSON.parse', () => {
    expect(() => parseBoundedJson('{"a": [1,', bounds)).toThrow(SyntaxError);
    expect(() => checkJsonDepth('"open string [[[[', 1)).not.toThrow();
  });
});

describe('leadingStringField', () => {
  it('finds a top-level key wherever it lies within the prefix, skipping other values', () => {
    expect(leadingStringField('{"ssid":"abc","images":["data:', 'ssid')).toBe('abc');
    expect(
      leadingStringField(' { "title" : "a,}\\"b", "n": [1, {"ssid": "x"}], "ssid" : "abc"', 'ssid'),
    ).toBe('abc');
    expect(leadingStringField('{"\\u0073sid":"abc"', 'ssid')).toBe('abc');
  });

  it('finds nothing when the key is nested, later than the prefix, not a string, or the text no object', () => {
    expect(leadingStringField('{"a":{"ssid":"abc"}}', 'ssid')).toBeUndefined();
    expect(leadingStringField('{"images":["data:image/png;base64,AAAA', 'ssid')).toBeUndefined();
    expect(leadingStringField('{"ssid":12}', 'ssid')).toBeUndefined();
    expect(leadingStringField('{"ssid":"abc', 'ssid')).toBeUndefined();
    expect(leadingStringField('["ssid","abc"]', 'ssid')).toBeUndefined();
    expect(leadingStringField(nested(30_000), 'ssid')).toBeUndefined();
  });
});
