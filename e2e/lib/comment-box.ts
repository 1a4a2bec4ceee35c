import { ja } from '@enishi/contract';

/*
 * The comment box at phone widths (issue 47): the texts that once pushed it off the screen or blanked the talk,
 * and what is measured, for Chromium (Playwright) and WebKit (WebDriver) alike.
 */

const LONG_URL = `https://example.jp/members/articles/2026/11/29/${'a1b2c3d4e5'.repeat(12)}?utm_source=app&ref=${'x'.repeat(40)}`;

export const COMMENT_TEXTS: Record<string, string> = {
  url: LONG_URL,
  laugh: '笑'.repeat(200),
  kana: 'あ'.repeat(60),
  mixed: `明日の件です${LONG_URL} ${'ｗ'.repeat(80)} よろしくお願いします！${'!'.repeat(50)}`,
};

export type Rect = {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
};
export type CommentBoxMeasure = {
  width: number;
  height: number;
  scrollWidth: number;
  box: Rect | null;
  boxScrolls: boolean;
  boxWraps: boolean;
  send: Rect | null;
  picker: Rect | null;
  timeline: Rect | null;
};

/** The talk's timeline, drawn once its messages are loaded (a spinner stands there before): wait for it first. */
export const TIMELINE = `[role="log"][aria-label=${JSON.stringify(ja.talk.timeline)}]`;

/** A script body (run in the page, returning a CommentBoxMeasure) that measures the comment box. */
export const measureCommentBox = `
  const rect = (element) => {
    if (!element) return null;
    const r = element.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
  };
  const box = document.querySelector('.composer__input');
  return {
    width: innerWidth,
    height: innerHeight,
    scrollWidth: document.documentElement.scrollWidth,
    box: rect(box),
    boxScrolls: box.scrollHeight > box.clientHeight + 1,
    boxWraps: box.scrollWidth <= box.clientWidth + 1,
    send: rect(document.querySelector('.composer__send')),
    picker: rect(document.querySelector('.composer__picker')),
    timeline: rect(document.querySelector(${JSON.stringify(TIMELINE)})),
  };`;

/** A script body that puts arguments[0] in the comment box as typing would (React hears an input event). */
export const fillCommentBox = `
  const box = document.querySelector('.composer__input');
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(box, arguments[0]);
  box.dispatchEvent(new Event('input', { bubbles: true }));`;

/** Everything of the comment box inside the screen, the box no taller than 40vh, the talk still shown. */
export function commentBoxProblems(m: CommentBoxMeasure): string[] {
  const found: string[] = [];
  const inside = (name: string, r: Rect | null) => {
    if (!r) return found.push(`${name} missing`);
    if (r.left < -0.5 || r.right > m.width + 0.5)
      found.push(`${name} ${r.left}..${r.right} outside 0..${m.width}`);
    if (r.bottom > m.height + 0.5 || r.height < 1)
      found.push(`${name} not on screen (${r.top}..${r.bottom})`);
  };
  inside('box', m.box);
  inside('send', m.send);
  inside('picker', m.picker);
  if (m.scrollWidth > m.width) found.push(`page ${m.scrollWidth} wide on a ${m.width} screen`);
  if (!m.boxWraps) found.push('the box scrolls sideways');
  if (m.box && m.box.height > m.height * 0.4 + 2) found.push(`box ${m.box.height} over 40vh`);
  if (!m.timeline || m.timeline.height < 100 || m.timeline.width < m.width * 0.8)
    found.push(`talk blanked (${JSON.stringify(m.timeline)})`);
  return found;
}
