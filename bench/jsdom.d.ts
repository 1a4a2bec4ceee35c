// The part of jsdom the tables bench uses (jsdom ships no types; the web tests reach it through vitest).
declare module 'jsdom' {
  export class JSDOM {
    constructor(html: string);
    readonly window: Window & typeof globalThis;
  }
}
