/**
 * Renders the default course images (web/public/course/course-1..6.webp) from HTML in headless Chromium,
 * in the app's brand: deep navy, ivory paper and muted gold. The server's COURSE_IMAGES can point
 * elsewhere; these are what a new club sees. Run after changing the wording or the design:
 *   npx tsx --conditions=source web/scripts/make-course-images.ts   (needs Chromium at $CHROMIUM or /usr/bin/chromium)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { jaMember } from '@enishi/contract';

const out = fileURLToPath(new URL('../public/course/', import.meta.url));
const WIDTH = 1080;
const HEIGHT = 1350;

const navy = '#14213d';
const navyLight = '#22365f';
const ivory = '#f7f2e7';
const paper = '#fffdf9';
const gold = '#c8a663';
const goldLight = '#dcc28a';
const goldText = '#75592a';
const ink = '#1c2333';
const muted = '#4f5a70';

/** The band and emblem colours of each course's card, in the catalogue's order. */
const tones = [
  { from: navyLight, to: navy, text: ivory, rule: goldLight },
  { from: '#8d96a8', to: '#4f5a70', text: '#ffffff', rule: '#e9edf3' },
  { from: '#d9bd80', to: '#a98846', text: navy, rule: navy },
  { from: '#a3405a', to: '#6e2438', text: '#fff6f3', rule: goldLight },
];

/** The words are the catalogue's (jaMember.course, which the course page shows as text). */
const courses = jaMember.course.courses.map((entry, index) => ({
  latin: entry.en,
  name: entry.name,
  lead: entry.catch,
  points: entry.points,
  note: entry.note,
  tone: tones[index]!,
}));
type Course = (typeof courses)[number];

const steps = jaMember.course.flow;

const base = `
  * { box-sizing: border-box; }
  html, body { margin: 0; }
  body { width: ${WIDTH}px; height: ${HEIGHT}px; overflow: hidden; font-family: 'Noto Sans CJK JP', sans-serif;
    color: ${ink}; -webkit-font-smoothing: antialiased; }
  .serif { font-family: 'Noto Serif CJK JP', serif; }
  .card { position: relative; width: ${WIDTH}px; height: ${HEIGHT}px; overflow: hidden; }
  .frame { position: absolute; inset: 36px; border: 2px solid ${gold}; pointer-events: none; }
  .frame::after { content: ''; position: absolute; inset: 10px; border: 1px solid ${gold}; opacity: 0.55; }
  .brand { position: absolute; left: 0; right: 0; bottom: 86px; text-align: center; font-size: 26px;
    letter-spacing: 0.5em; color: ${goldText}; }
`;

const mark = (color: string, size: number) =>
  `<div style="width:${size}px;height:${size}px;border-radius:50%;border:3px solid ${color};display:grid;place-items:center;
    box-shadow: inset 0 0 0 10px transparent, 0 0 0 10px transparent;">
    <div style="width:${size - 34}px;height:${size - 34}px;border-radius:50%;border:1.5px solid ${color};display:grid;place-items:center;">
      <span class="serif" style="font-size:${size * 0.42}px;font-weight:700;color:${color};line-height:1">縁</span>
    </div></div>`;

function cover(): string {
  return `<style>${base}
    .card { background: radial-gradient(circle at 50% 32%, ${navyLight}, ${navy} 70%); color: ${ivory}; }
    .inner { position: absolute; inset: 0; display: grid; justify-items: center; align-content: center; gap: 44px; text-align: center; }
    .eyebrow { font-size: 28px; letter-spacing: 0.6em; color: ${goldLight}; margin-right: -0.6em; }
    h1 { margin: 0; font-size: 92px; font-weight: 700; letter-spacing: 0.18em; margin-right: -0.18em; }
    .tagline { font-size: 36px; letter-spacing: 0.14em; color: ${ivory}; opacity: 0.92; }
    .rule { width: 420px; height: 1px; background: linear-gradient(90deg, transparent, ${goldLight}, transparent); }
    .courses { display: flex; gap: 22px; font-size: 32px; letter-spacing: 0.12em; color: ${goldLight}; }
    .brand { color: ${goldLight}; }
  </style>
  <div class="card"><div class="frame"></div><div class="inner">
    <div class="eyebrow">COURSE GUIDE</div>
    ${mark(goldLight, 230)}
    <h1 class="serif">コースのご案内</h1>
    <div class="rule"></div>
    <div class="tagline serif">大切なご縁を、確かなかたちに。</div>
    <div class="courses serif"><span>一般</span><span>・</span><span>プラチナ</span><span>・</span><span>VIP</span><span>・</span><span>スペシャル</span></div>
  </div><div class="brand serif">ENISHI</div></div>`;
}

function course(c: Course, index: number): string {
  return `<style>${base}
    .card { background: ${ivory}; }
    .band { position: absolute; left: 0; right: 0; top: 0; height: 470px;
      background: linear-gradient(155deg, ${c.tone.from}, ${c.tone.to}); color: ${c.tone.text};
      display: grid; justify-items: center; align-content: center; gap: 22px; text-align: center; }
    .band::after { content: ''; position: absolute; left: 0; right: 0; bottom: 0; height: 4px; background: ${gold}; }
    .no { font-size: 26px; letter-spacing: 0.5em; opacity: 0.85; margin-right: -0.5em; }
    .latin { font-size: 40px; letter-spacing: 0.55em; margin-right: -0.55em; opacity: 0.9; }
    h1 { margin: 0; font-size: 96px; font-weight: 700; letter-spacing: 0.12em; margin-right: -0.12em; }
    .rule { width: 180px; height: 2px; background: ${c.tone.rule}; opacity: 0.8; }
    .body { position: absolute; left: 110px; right: 110px; top: 470px; bottom: 150px; display: grid; gap: 40px;
      align-content: center; }
    .lead { font-size: 44px; font-weight: 700; color: ${navy}; letter-spacing: 0.06em; text-align: center; }
    ul { margin: 0; padding: 44px 48px; list-style: none; display: grid; gap: 32px; background: ${paper};
      border: 1px solid #e4dac5; border-radius: 18px; box-shadow: 0 10px 30px -22px rgba(20,33,61,0.5); }
    li { display: flex; align-items: center; gap: 22px; font-size: 36px; letter-spacing: 0.04em; line-height: 1.4; }
    li::before { content: ''; flex: none; width: 16px; height: 16px; transform: rotate(45deg); background: ${gold}; }
    .note { font-size: 28px; color: ${muted}; text-align: center; letter-spacing: 0.04em; }
  </style>
  <div class="card">
    <div class="band"><div class="no serif">COURSE ${String(index).padStart(2, '0')}</div><div class="latin serif">${c.latin}</div>
      <h1 class="serif">${c.name}</h1><div class="rule"></div></div>
    <div class="body"><div class="lead serif">${c.lead}</div>
      <ul>${c.points.map((point) => `<li>${point}</li>`).join('')}</ul>
      <div class="note">${c.note}</div></div>
    <div class="frame" style="border-color:${gold}"></div>
    <div class="brand serif">ENISHI</div>
  </div>`;
}

function flow(): string {
  return `<style>${base}
    .card { background: ${ivory}; }
    .head { position: absolute; left: 0; right: 0; top: 104px; display: grid; justify-items: center; gap: 18px; }
    .eyebrow { font-size: 28px; letter-spacing: 0.55em; color: ${goldText}; margin-right: -0.55em; }
    h1 { margin: 0; font-size: 80px; letter-spacing: 0.14em; color: ${navy}; margin-right: -0.14em; }
    .rule { width: 180px; height: 2px; background: ${gold}; }
    ol { position: absolute; left: 110px; right: 110px; top: 330px; margin: 0; padding: 0; list-style: none; display: grid; gap: 18px; }
    li { display: grid; grid-template-columns: 80px 1fr; align-items: center; gap: 28px; padding: 18px 30px;
      background: ${paper}; border: 1px solid #e4dac5; border-radius: 18px; }
    .num { width: 80px; height: 80px; border-radius: 50%; background: ${navy}; color: ${goldLight}; display: grid;
      place-items: center; font-size: 36px; font-weight: 700; }
    .title { font-size: 38px; font-weight: 700; color: ${navy}; letter-spacing: 0.08em; }
    .text { font-size: 28px; color: ${muted}; margin-top: 4px; }
    .hours { position: absolute; left: 110px; right: 110px; bottom: 140px; text-align: center; font-size: 30px;
      color: ${ink}; letter-spacing: 0.06em; line-height: 1.7; }
    .hours strong { color: ${navy}; }
  </style>
  <div class="card">
    <div class="head"><div class="eyebrow serif">HOW IT WORKS</div><h1 class="serif">ご利用の流れ</h1><div class="rule"></div></div>
    <ol>${steps
      .map(
        ([title, text], i) =>
          `<li><div class="num serif">${i + 1}</div><div><div class="title serif">${title}</div><div class="text">${text}</div></div></li>`,
      )
      .join('')}</ol>
    <div class="hours"><strong>営業時間 12:00〜20:00</strong>（日曜・祝日休み）<br>料金の詳細は担当スタッフまでお問い合わせください。</div>
    <div class="frame"></div>
    <div class="brand serif">ENISHI</div>
  </div>`;
}

const pages = [cover(), ...courses.map((c, i) => course(c, i + 1)), flow()];

mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: 1 });
  for (const [index, html] of pages.entries()) {
    await page.setContent(
      `<!doctype html><html lang="ja"><head><meta charset="utf-8"></head><body>${html}</body></html>`,
    );
    await page.evaluate(() => document.fonts.ready);
    const png = await page.screenshot({ type: 'png' });
    // Chromium encodes WebP itself: draw the screenshot on a canvas and export it.
    const webp = await page.evaluate(async (base64) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      canvas.getContext('2d')!.drawImage(image, 0, 0);
      return canvas.toDataURL('image/webp', 0.86).split(',')[1]!;
    }, png.toString('base64'));
    const file = `${out}course-${index + 1}.webp`;
    writeFileSync(file, Buffer.from(webp, 'base64'));
    process.stdout.write(`${file}: ${Math.round(Buffer.from(webp, 'base64').length / 1024)} KB\n`);
  }
} finally {
  await browser.close();
}
