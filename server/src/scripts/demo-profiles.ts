import sharp from 'sharp';
import type { Profile } from '@enishi/contract';
import type { Services } from '../composition/container.js';
import type { Actor } from '../services/session-service.js';

/*
 * The demo club's profiles (product.md §19): about 200 companies with their media and the staff in charge,
 * believable profiles and drawn portrait photos for every demo man and woman, and a few applications waiting
 * in the staff inbox. Called by demo.ts with the admin (who edits the club lists) and the staff member.
 */

const COMPANY_WORDS = [
  '彩',
  '雅',
  '凛',
  '華',
  '縁',
  '瑠璃',
  '紫苑',
  '桜',
  '葵',
  '椿',
  '翠',
  '琥珀',
  '花音',
  '月光',
  '白鷺',
  '銀河',
  '青葉',
  '若葉',
  '朱雀',
  '蓮',
];
const COMPANY_FORMS = [
  (word: string) => `銀座クラブ ${word}`,
  (word: string) => `北新地 ${word}`,
  (word: string) => `ラウンジ ${word}`,
  (word: string) => `株式会社${word}企画`,
  (word: string) => `${word}モデルエージェンシー`,
  (word: string) => `六本木 ${word}`,
  (word: string) => `${word}商事株式会社`,
  (word: string) => `すすきの ${word}`,
  (word: string) => `中洲 ${word}`,
  (word: string) => `${word}プロダクション`,
];

/** 200 companies (`id:name`), one medium for every tenth of them, and three staff in charge. */
export function demoClubLists() {
  const companies = COMPANY_FORMS.flatMap((form, f) =>
    COMPANY_WORDS.map((word, w) => ({ code: f * COMPANY_WORDS.length + w + 1, label: form(word) })),
  );
  const media = companies
    .filter((company) => company.code % 10 === 1)
    .map((company, index) => ({
      code: index + 1,
      label: `${company.label} 公式サイト`,
      parent: company.code,
    }));
  const chargeStaff = [
    { code: 1, label: '森 さくら' },
    { code: 2, label: '中村 真一' },
    { code: 3, label: '高橋 静香' },
  ];
  return { companies, media, chargeStaff };
}

const WOMEN_PROFILES: Partial<Profile>[] = [
  {
    nickname: 'みさき',
    birth_date: '1998-06-12',
    prefecture: 13,
    area: 1,
    blood_type: 1,
    height: 163,
    bust: 84,
    waist: 58,
    hip: 86,
    cup: 4,
    type: 2,
    sake: 3,
    tobacco: 0,
    golf: 2,
    joint_party: 1,
    languages: [1],
    language_level: 1,
    occupation: 39,
    company: 1,
    women_rank: 4,
    entry_type: 1,
    charge_staff: 1,
    media: 1,
    importance: 1,
    personality: [1, 3],
    preferred_man: [1, 8],
    time_slots: [2, 4],
    pr: '客室乗務員をしています。週末はゴルフの練習に通っています。美味しいお店を教えてください。',
    sales_note: '初回面談済み。平日夜が中心。',
  },
  {
    nickname: 'あや',
    birth_date: '2000-11-03',
    prefecture: 14,
    area: 2,
    blood_type: 3,
    height: 158,
    bust: 82,
    cup: 3,
    type: 1,
    sake: 2,
    tobacco: 0,
    golf: 0,
    joint_party: 3,
    languages: [],
    occupation: 43,
    company: 25,
    women_rank: 3,
    entry_type: 2,
    charge_staff: 2,
    importance: 2,
    personality: [1, 9],
    pr: 'モデルのお仕事をしています。横浜の海沿いのお散歩が好きです。',
  },
  {
    nickname: 'ゆい',
    birth_date: '1995-02-20',
    prefecture: 27,
    area: 6,
    blood_type: 2,
    height: 167,
    bust: 86,
    cup: 5,
    type: 7,
    sake: 4,
    tobacco: 0,
    golf: 3,
    joint_party: 1,
    languages: [1, 2],
    language_level: 2,
    occupation: 12,
    company: 42,
    women_rank: 5,
    entry_type: 1,
    charge_staff: 1,
    importance: 1,
    pr: '大阪で弁護士をしています。出張で東京にもよく参ります。ワインとゴルフが好きです。',
  },
  {
    nickname: 'りこ',
    birth_date: '2002-08-08',
    prefecture: 40,
    area: 7,
    blood_type: 4,
    height: 155,
    bust: 80,
    cup: 3,
    type: 9,
    sake: 0,
    tobacco: 0,
    golf: 1,
    joint_party: 2,
    languages: [3],
    occupation: 50,
    women_rank: 1,
    entry_type: 0,
    charge_staff: 3,
    importance: 3,
    pr: '福岡の大学に通っています。カフェ巡りが趣味です。',
  },
];

const MEN_PROFILE = (index: number): Partial<Profile> => ({
  birth_date: `${1968 + index * 4}-0${(index % 9) + 1}-15`,
  prefecture: [13, 13, 14, 27, 23, 40][index] ?? 13,
  area: [1, 1, 2, 6, 5, 7][index] ?? 1,
  height: 168 + index * 2,
  occupation: [3, 2, 6, 12, 14, 18][index] ?? 1,
  income: [1500, 3000, 5000, 2500, 8000, 1200][index] ?? 1000,
  sake: (index % 3) + 2,
  tobacco: index === 4 ? 2 : 0,
  golf: (index % 4) + 1,
  marriage: index === 5 ? 2 : 3,
  personality: [((index + 1) % 9) + 1],
  pr: '仕事の合間に、落ち着いて食事を楽しめる方とお会いしたいです。',
});

const PALETTES = [
  ['#f3e3e6', '#c9a0a8', '#5b3a3f'],
  ['#e7ecf5', '#9fb0cf', '#2f3b58'],
  ['#f5efe0', '#d7bf8c', '#5a4a2a'],
  ['#e6f0ec', '#9cc3b2', '#2f4a40'],
];

/** A soft drawn portrait (a silhouette on a gradient), 600 × 800, as a JPEG data URL. */
async function portrait(seed: number): Promise<string> {
  const [light, mid, dark] = PALETTES[seed % PALETTES.length]!;
  const shift = (seed * 37) % 60;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0.4" y2="1">
      <stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${mid}"/></linearGradient></defs>
    <rect width="600" height="800" fill="url(#g)"/>
    <circle cx="${470 - shift}" cy="${150 + shift}" r="120" fill="#ffffff" fill-opacity="0.25"/>
    <ellipse cx="300" cy="330" rx="118" ry="140" fill="${dark}" fill-opacity="0.78"/>
    <path d="M90 800 C 110 560, 220 500, 300 500 C 380 500, 490 560, 510 800 Z" fill="${dark}" fill-opacity="0.78"/>
  </svg>`;
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

const APPLICANTS = [
  { type: 'female', name: '井上 真央', age: 26, email: 'mao.inoue@example.jp', tel: '090-2345-6789' },
  { type: 'male', name: '松本 浩二', age: 45, email: 'k.matsumoto@example.jp', tel: '080-3456-7890' },
  { type: 'female', name: '木村 玲奈', age: 23, email: 'rena.k@example.jp', tel: '070-4567-8901' },
] as const;

/** Fills the club lists, the profiles and photos of every demo member, and the applications inbox. */
export async function fillProfiles(
  services: Services,
  people: { admin: Actor; staff: Actor; men: Actor[]; women: Actor[] },
  tick: () => void,
): Promise<void> {
  const lists = demoClubLists();
  await services.profiles.replaceClubList(people.admin, 'companies', lists.companies);
  await services.profiles.replaceClubList(people.admin, 'media', lists.media);
  await services.profiles.replaceClubList(people.admin, 'chargeStaff', lists.chargeStaff);

  for (const [index, woman] of people.women.entries()) {
    tick();
    await services.profiles.update(people.staff, woman.uid, WOMEN_PROFILES[index % WOMEN_PROFILES.length]!);
    for (let photo = 0; photo < 3 - (index % 2); photo += 1) {
      await services.profiles.addPhoto(people.staff, woman.uid, await portrait(index * 3 + photo));
    }
  }
  for (const [index, man] of people.men.entries()) {
    tick();
    await services.profiles.update(people.staff, man.uid, MEN_PROFILE(index));
    await services.profiles.addPhoto(people.staff, man.uid, await portrait(index + 1));
  }
  for (const applicant of APPLICANTS) {
    tick();
    await services.applications.submit(applicant, '127.0.0.1');
  }
}
