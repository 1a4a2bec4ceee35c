/*
 * JSON from outside, read within bounds. JSON.parse itself has no depth limit, and everything that walks
 * the result afterwards (validation, the NUL check) recurses: a body of nested brackets could exhaust the
 * stack or hold the event loop. A linear pre-scan refuses such text before JSON.parse sees it.
 */

/** How deep arrays and objects may nest in anything a client sends. No call needs more than a few levels. */
export const JSON_MAX_DEPTH = 64;

export interface JsonBounds {
  maxDepth: number;
  /** Size of the text in UTF-8 bytes. */
  maxBytes: number;
}

export class JsonBoundsError extends Error {
  constructor(readonly reason: 'depth' | 'size') {
    super(reason === 'depth' ? 'JSON nests too deep' : 'JSON text too large');
    this.name = 'JsonBoundsError';
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** Index just past the string whose opening quote is at `start`, or -1 when the text ends inside it. */
function endOfString(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote === -1) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/**
 * Throws JsonBoundsError when arrays and objects nest deeper than `maxDepth`. One pass, no recursion;
 * brackets inside strings do not count. It does not check that the text is valid JSON: JSON.parse does.
 */
export function checkJsonDepth(text: string, maxDepth: number): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = endOfString(text, i);
      if (end === -1) return;
      i = end - 1;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > maxDepth) throw new JsonBoundsError('depth');
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
}

/** JSON.parse within bounds: too large or too deep throws JsonBoundsError, malformed text a SyntaxError. */
export function parseBoundedJson(text: string, bounds: JsonBounds): unknown {
  // A UTF-8 byte is at least one UTF-16 unit and at most three per unit: only the middle needs counting.
  if (text.length > bounds.maxBytes) throw new JsonBoundsError('size');
  if (text.length * 3 > bounds.maxBytes && Buffer.byteLength(text, 'utf8') > bounds.maxBytes) {
    throw new JsonBoundsError('size');
  }
  checkJsonDepth(text, bounds.maxDepth);
  return JSON.parse(text) as unknown;
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** Index of the `,` or `}` that ends the value starting at `at`, or -1 when the text ends first. */
function endOfValue(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = endOfString(text, i);
      if (end === -1) return -1;
      i = end - 1;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth++;
    } else if (c === CLOSE_ARRAY || (c === CLOSE_OBJECT && depth > 0)) {
      depth--;
    } else if (depth === 0 && (c === 0x2c || c === CLOSE_OBJECT)) {
      return i;
    }
  }
  return -1;
}

function decodeString(raw: string): string | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The string value of a top-level `key` of the JSON object that `prefix` begins, when the key and its
 * value lie wholly within the prefix; undefined otherwise (not an object, the key later or absent, not a
 * string). Reads only the prefix, once: this is how a large body's session is found before it is read.
 */
export function leadingStringField(prefix: string, key: string): string | undefined {
  let at = skipSpace(prefix, 0);
  if (prefix.charCodeAt(at) !== OPEN_OBJECT) return undefined;
  at++;
  for (;;) {
    at = skipSpace(prefix, at);
    if (prefix.charCodeAt(at) !== QUOTE) return undefined;
    const keyEnd = endOfString(prefix, at);
    if (keyEnd === -1) return undefined;
    const name = keyEnd - at <= 2 * key.length + 8 ? decodeString(prefix.slice(at, keyEnd)) : undefined;
    at = skipSpace(prefix, keyEnd);
    if (prefix.charCodeAt(at) !== 0x3a) return undefined;
    at = skipSpace(prefix, at + 1);
    if (name === key) {
      if (prefix.charCodeAt(at) !== QUOTE) return undefined;
      const valueEnd = endOfString(prefix, at);
      return valueEnd === -1 ? undefined : decodeString(prefix.slice(at, valueEnd));
    }
    const end = endOfValue(prefix, at);
    if (end === -1 || prefix.charCodeAt(end) === CLOSE_OBJECT) return undefined;
    at = end + 1;
  }
}
