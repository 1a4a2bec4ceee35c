/*
 * Plain text with clickable links (product.md §5): http(s) URLs become links, nothing else is markup. The parts are
 * rendered as text nodes and <a> elements, never as HTML.
 */

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const URL_PATTERN = /https?:\/\/[^\s<>"'`、。「」『』（）【】]+/gi;
/** Punctuation that ends the sentence rather than the URL. */
const SENTENCE_END = '.,:;!?';
const OPENING: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

const count = (text: string, char: string) => text.split(char).length - 1;

/** Drops trailing punctuation, and a closing bracket unless it closes one inside the URL ("..._(曲)"). */
function trimUrl(candidate: string): string {
  let end = candidate.length;
  while (end > 0) {
    const char = candidate[end - 1] ?? '';
    const opening = OPENING[char];
    const body = candidate.slice(0, end);
    if (SENTENCE_END.includes(char) || (opening && count(body, opening) < count(body, char))) end -= 1;
    else break;
  }
  return candidate.slice(0, end);
}

function isHttpUrl(candidate: string): boolean {
  try {
    const url = new URL(candidate);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    const url = trimUrl(match[0]);
    if (url.length <= 'https://'.length || !isHttpUrl(url)) continue;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', text: url, href: url });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
