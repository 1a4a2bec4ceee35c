/*
 * Draws the club's own stamp set (product.md §12.8): つるちゃん, a little red-crowned crane holding the red
 * thread of 縁, in 24 poses with a word each. Writes server/assets/stamps/club/NN.png (240×240, shown at
 * 120 CSS px, so crisp at 2×) and labels.json; the words are drawn here with Noto Sans CJK, so phones need no
 * font. `npx tsx server/src/scripts/draw-stamps.ts`; the server seeds the set from these files (StampService).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

type Eyes = 'dot' | 'happy' | 'closed' | 'wink' | 'sad' | 'wide' | 'heart' | 'star';
type Extra =
  | 'heart'
  | 'hearts'
  | 'zzz'
  | 'sun'
  | 'sweat'
  | 'sparkle'
  | 'ok'
  | 'flag'
  | 'flower'
  | 'question'
  | 'bang'
  | 'note'
  | 'bow'
  | 'tea'
  | 'wave';

interface Stamp {
  label: string;
  lines: string[];
  eyes: Eyes;
  extra: Extra;
  color: string;
}

const RED = '#d94452';
const INK = '#3b3640';

const STAMPS: Stamp[] = [
  { label: 'ありがとう', lines: ['ありがとう'], eyes: 'happy', extra: 'hearts', color: RED },
  {
    label: 'よろしくお願いします',
    lines: ['よろしく', 'お願いします'],
    eyes: 'closed',
    extra: 'bow',
    color: '#c2553d',
  },
  { label: 'OK', lines: ['OK!'], eyes: 'wink', extra: 'ok', color: '#2f8f5b' },
  { label: 'おやすみ', lines: ['おやすみ'], eyes: 'closed', extra: 'zzz', color: '#4a5fa8' },
  { label: 'おはよう', lines: ['おはよう'], eyes: 'dot', extra: 'sun', color: '#e08a1e' },
  { label: 'こんにちは', lines: ['こんにちは'], eyes: 'happy', extra: 'wave', color: '#2b8fb0' },
  { label: '了解です', lines: ['了解です'], eyes: 'dot', extra: 'flag', color: '#2f8f5b' },
  { label: 'お疲れさま', lines: ['お疲れさま'], eyes: 'closed', extra: 'tea', color: '#7a5a3a' },
  { label: 'うれしい', lines: ['うれしい!'], eyes: 'star', extra: 'sparkle', color: '#e0609a' },
  { label: 'ごめんね', lines: ['ごめんね'], eyes: 'sad', extra: 'sweat', color: '#5f6fb0' },
  { label: '楽しみ', lines: ['楽しみ!'], eyes: 'star', extra: 'note', color: '#e08a1e' },
  { label: 'おめでとう', lines: ['おめでとう'], eyes: 'happy', extra: 'flower', color: RED },
  { label: 'がんばって', lines: ['がんばって'], eyes: 'wide', extra: 'flag', color: '#d0502a' },
  { label: 'いいね', lines: ['いいね!'], eyes: 'wink', extra: 'sparkle', color: '#2b8fb0' },
  { label: 'なるほど', lines: ['なるほど'], eyes: 'dot', extra: 'bang', color: '#6a55a0' },
  { label: 'また今度', lines: ['また今度'], eyes: 'happy', extra: 'wave', color: '#4a8a6a' },
  { label: 'ドキドキ', lines: ['ドキドキ'], eyes: 'heart', extra: 'heart', color: '#e0609a' },
  { label: 'どうしよう', lines: ['どうしよう…'], eyes: 'sad', extra: 'question', color: '#5f6fb0' },
  {
    label: 'お待たせしました',
    lines: ['お待たせ', 'しました'],
    eyes: 'wide',
    extra: 'sweat',
    color: '#c2553d',
  },
  { label: '承知しました', lines: ['承知', 'しました'], eyes: 'closed', extra: 'bow', color: '#3d6a9a' },
  { label: 'よろしくね', lines: ['よろしくね'], eyes: 'wink', extra: 'heart', color: '#e0609a' },
  { label: 'ファイト', lines: ['ファイト!'], eyes: 'wide', extra: 'bang', color: '#d0502a' },
  { label: '会えてうれしい', lines: ['会えて', 'うれしい'], eyes: 'heart', extra: 'hearts', color: RED },
  { label: 'またね', lines: ['またね'], eyes: 'happy', extra: 'flower', color: '#4a8a6a' },
];

const heart = (x: number, y: number, s: number, fill = RED) =>
  `<path transform="translate(${x} ${y}) scale(${s})" fill="${fill}" d="M0 6C-9-4-18 3-12 11L0 22 12 11C18 3 9-4 0 6Z"/>`;

const star = (x: number, y: number, r: number, fill: string) => {
  const points = Array.from({ length: 10 }, (_, i) => {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const d = i % 2 === 0 ? r : r * 0.45;
    return `${(x + d * Math.cos(a)).toFixed(1)},${(y + d * Math.sin(a)).toFixed(1)}`;
  });
  return `<polygon points="${points.join(' ')}" fill="${fill}"/>`;
};

function eyes(kind: Eyes): string {
  const pair = (draw: (x: number) => string) => draw(104) + draw(136);
  const line = `stroke="${INK}" stroke-width="5" stroke-linecap="round" fill="none"`;
  switch (kind) {
    case 'dot':
      return pair((x) => `<circle cx="${x}" cy="84" r="6" fill="${INK}"/>`);
    case 'happy':
      return pair((x) => `<path d="M${x - 8} 88 Q${x} 76 ${x + 8} 88" ${line}/>`);
    case 'closed':
      return pair((x) => `<path d="M${x - 8} 82 Q${x} 92 ${x + 8} 82" ${line}/>`);
    case 'wink':
      return `<circle cx="104" cy="84" r="6" fill="${INK}"/><path d="M128 88 Q136 76 144 88" ${line}/>`;
    case 'sad':
      return pair(
        (x) =>
          `<path d="M${x - 8} 88 L${x + 8} 80" ${line} transform="${x > 120 ? `scale(-1 1) translate(${-2 * x} 0)` : ''}"/>`,
      );
    case 'wide':
      return pair(
        (x) =>
          `<circle cx="${x}" cy="84" r="9" fill="#fff" stroke="${INK}" stroke-width="4"/><circle cx="${x}" cy="85" r="4.5" fill="${INK}"/>`,
      );
    case 'heart':
      return pair((x) => heart(x, 74, 0.75));
    case 'star':
      return pair((x) => star(x, 84, 10, '#f2b01e'));
  }
}

function extra(kind: Extra): string {
  const line = (color: string, width = 5) =>
    `stroke="${color}" stroke-width="${width}" stroke-linecap="round" fill="none"`;
  switch (kind) {
    case 'heart':
      return heart(186, 44, 1.3);
    case 'hearts':
      return heart(40, 40, 1) + heart(190, 30, 1.3) + heart(200, 92, 0.8);
    case 'zzz':
      return `<text x="168" y="62" font-family="Noto Sans CJK JP" font-weight="700" font-size="34" fill="#4a5fa8">Z</text><text x="196" y="36" font-family="Noto Sans CJK JP" font-weight="700" font-size="24" fill="#4a5fa8">z</text>`;
    case 'sun':
      return `<circle cx="196" cy="42" r="16" fill="#f2b01e"/>${Array.from({ length: 8 }, (_, i) => {
        const a = (Math.PI / 4) * i;
        return `<line x1="${196 + 22 * Math.cos(a)}" y1="${42 + 22 * Math.sin(a)}" x2="${196 + 30 * Math.cos(a)}" y2="${42 + 30 * Math.sin(a)}" ${line('#f2b01e')}/>`;
      }).join('')}`;
    case 'sweat':
      return `<path d="M172 50 Q162 66 172 72 Q182 66 172 50Z" fill="#7cc3e8"/>`;
    case 'sparkle':
      return star(44, 44, 16, '#f2b01e') + star(196, 40, 12, '#f2b01e') + star(204, 100, 8, '#f2b01e');
    case 'ok':
      return `<circle cx="196" cy="52" r="22" ${line('#2f8f5b', 8)}/>`;
    case 'flag':
      return `<line x1="186" y1="24" x2="186" y2="104" ${line(INK)}/><path d="M188 26 L222 38 L188 52Z" fill="${RED}"/>`;
    case 'flower':
      return `${[0, 72, 144, 216, 288].map((d) => `<ellipse cx="196" cy="30" rx="9" ry="14" fill="#f4a3b8" transform="rotate(${d} 196 46)"/>`).join('')}<circle cx="196" cy="46" r="7" fill="#f2b01e"/>`;
    case 'question':
      return `<text x="178" y="70" font-family="Noto Sans CJK JP" font-weight="700" font-size="52" fill="#5f6fb0">?</text>`;
    case 'bang':
      return `<text x="184" y="72" font-family="Noto Sans CJK JP" font-weight="700" font-size="56" fill="#d0502a">!</text>`;
    case 'note':
      return `<path d="M186 70 V30 L214 24 V62" ${line(INK)}/><circle cx="180" cy="70" r="8" fill="${INK}"/><circle cx="208" cy="62" r="8" fill="${INK}"/>`;
    case 'bow':
      return `<path d="M60 40 q10-10 20 0 M56 52 q14-8 28 0" ${line('#c9c2cc')}/><path d="M160 40 q10-10 20 0 M156 52 q14-8 28 0" ${line('#c9c2cc')}/>`;
    case 'tea':
      return `<path d="M174 66 h36 v18 a18 14 0 0 1 -36 0Z" fill="#8fbf6a" stroke="${INK}" stroke-width="4"/><path d="M184 58 q4-8 0-14 M198 58 q4-8 0-14" ${line('#c9c2cc')}/>`;
    case 'wave':
      return `<path d="M196 40 q10 10 0 20 M208 32 q16 18 0 36" ${line(INK)}/>`;
  }
}

/** つるちゃん: a round white crane with a red crown, a yellow beak and the red thread tied in a bow. */
function crane(stamp: Stamp): string {
  return [
    // The red thread, from the wing to a loose curl.
    `<path d="M160 128 C190 120 206 150 186 160 C170 168 176 140 200 136" stroke="${RED}" stroke-width="4" fill="none" stroke-linecap="round"/>`,
    // Legs, tail feathers and the round body.
    `<path d="M106 150 v24 M134 150 v24" stroke="${INK}" stroke-width="5" stroke-linecap="round"/>`,
    `<path d="M70 126 L42 146 L62 148 L50 162 L84 146Z" fill="${INK}"/>`,
    `<ellipse cx="120" cy="104" rx="58" ry="56" fill="#fff" stroke="${INK}" stroke-width="5"/>`,
    // The crown, the cheeks and the beak.
    `<path d="M106 52 Q120 34 134 52Z" fill="${RED}"/>`,
    `<ellipse cx="92" cy="100" rx="9" ry="6" fill="#f7b6c0"/><ellipse cx="148" cy="100" rx="9" ry="6" fill="#f7b6c0"/>`,
    `<path d="M112 96 L128 96 L120 110Z" fill="#f2b01e" stroke="${INK}" stroke-width="3" stroke-linejoin="round"/>`,
    // The wing, raised a little, with the bow of the thread.
    `<path d="M156 112 q22 -6 18 22 q-14 6 -26 -4Z" fill="#fff" stroke="${INK}" stroke-width="4"/>`,
    `<path d="M152 128 l-10 -8 v16Z M152 128 l10 -8 v16Z" fill="${RED}"/>`,
    eyes(stamp.eyes),
    extra(stamp.extra),
  ].join('');
}

function words(stamp: Stamp): string {
  const longest = Math.max(...stamp.lines.map((text) => text.length));
  const size = Math.min(44, Math.floor(224 / Math.max(longest, 1)));
  const bottom = 230;
  return stamp.lines
    .map((text, i) => {
      const y = bottom - (stamp.lines.length - 1 - i) * (size + 2);
      return `<text x="120" y="${y}" text-anchor="middle" font-family="Noto Sans CJK JP" font-weight="700" font-size="${size}" fill="${stamp.color}" stroke="#fff" stroke-width="7" stroke-linejoin="round" paint-order="stroke">${text}</text>`;
    })
    .join('');
}

export function stampSvg(stamp: Stamp): string {
  const shift = stamp.lines.length > 1 ? -24 : -6;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240"><g transform="translate(0 ${shift})">${crane(stamp)}</g>${words(stamp)}</svg>`;
}

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../assets/stamps/club');
mkdirSync(out, { recursive: true });
let total = 0;
for (const [i, stamp] of STAMPS.entries()) {
  const png = await sharp(Buffer.from(stampSvg(stamp)))
    .png({ palette: true, quality: 90, effort: 10, compressionLevel: 9 })
    .toBuffer();
  writeFileSync(path.join(out, `${String(i + 1).padStart(2, '0')}.png`), png);
  total += png.length;
}
writeFileSync(
  path.join(out, 'labels.json'),
  `${JSON.stringify(
    STAMPS.map((s) => s.label),
    null,
    1,
  )}\n`,
);
console.log(`wrote ${STAMPS.length} stamps to ${out}: ${total} bytes`);
