/*
 * Fills an EMPTY database with a small, believable club to try the app with: staff of roles 1, 2 and 3,
 * a man of every rank 1 to 6, four women, talks with the staff desk, a group talk with its history, news
 * and banners for both groups and one bulk send. It refuses a database that has any user at all, so it can
 * never touch a real club. Prints every demo login with a fresh random password.
 *
 *   npm run demo                        (uses DATA_DIR / DATABASE_URL like the server; stop the server first
 *                                        when using the embedded database: only one process may open it)
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { ROLE, ja } from '@enishi/contract';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase } from '../db/client.js';
import { randomPassword } from '../lib/passwords.js';
import { MemberAdminRepository } from '../repositories/member-admin-repository.js';
import { createServices } from '../composition/container.js';
import {
  DAY,
  DemoClock,
  HOUR,
  actorOf,
  type DemoClub,
  type DemoPeople,
  type DemoUser,
  type Login,
} from './demo-club.js';
import { fillProfiles } from './demo-profiles.js';
import { fillDeskTalks, fillGroupTalk } from './demo-talks.js';

/** The database already has users: the demo leaves it alone. */
export class DemoRefused extends Error {
  override name = 'DemoRefused';
}

const staffPeople = [
  { loginId: 'demo-owner', name: '高橋 静香', nameKana: 'たかはし しずか', role: ROLE.owner },
  { loginId: 'demo-admin', name: '中村 真一', nameKana: 'なかむら しんいち', role: ROLE.admin },
  { loginId: 'demo-staff', name: '森 さくら', nameKana: 'もり さくら', role: ROLE.staff },
];
const menPeople = [
  { loginId: 'demo-man-1', name: '田中 健一', nameKana: 'たなか けんいち', rank: 1, introducer: '' },
  { loginId: 'demo-man-2', name: '鈴木 大輔', nameKana: 'すずき だいすけ', rank: 2, introducer: '田中 健一' },
  { loginId: 'demo-man-3', name: '渡辺 翔太', nameKana: 'わたなべ しょうた', rank: 3, introducer: '' },
  {
    loginId: 'demo-man-4',
    name: '伊藤 直樹',
    nameKana: 'いとう なおき',
    rank: 4,
    introducer: '日本橋倶楽部',
  },
  { loginId: 'demo-man-5', name: '山本 拓也', nameKana: 'やまもと たくや', rank: 5, introducer: '' },
  { loginId: 'demo-man-6', name: '小林 誠', nameKana: 'こばやし まこと', rank: 6, introducer: '' },
];
const womenPeople = [
  { loginId: 'demo-woman-1', name: '佐藤 美咲', nameKana: 'さとう みさき', introducer: '' },
  { loginId: 'demo-woman-2', name: '加藤 彩', nameKana: 'かとう あや', introducer: '佐藤 美咲' },
  { loginId: 'demo-woman-3', name: '吉田 結衣', nameKana: 'よしだ ゆい', introducer: '' },
  { loginId: 'demo-woman-4', name: '山田 莉子', nameKana: 'やまだ りこ', introducer: '' },
];

/** A calm abstract picture in the brand colours (no text, so it renders the same on any machine). */
async function picture(width: number, height: number, from: string, to: string, title = ''): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width * 0.82}" cy="${height * 0.3}" r="${height * 0.55}" fill="none" stroke="#dcc28a" stroke-opacity="0.55" stroke-width="3"/>
    <circle cx="${width * 0.82}" cy="${height * 0.3}" r="${height * 0.42}" fill="none" stroke="#dcc28a" stroke-opacity="0.35" stroke-width="2"/>
    <rect x="24" y="24" width="${width - 48}" height="${height - 48}" fill="none" stroke="#dcc28a" stroke-opacity="0.6" stroke-width="2"/>
    ${
      title
        ? `<text x="72" y="${height / 2 + 18}" font-family="serif" font-size="${Math.round(height * 0.16)}"
             letter-spacing="6" fill="#fdfbf6">${title}</text>`
        : ''
    }
  </svg>`;
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

/**
 * The owner first (as on a real first start), then everyone else registered by her, so the audit log
 * tells the story too.
 */
async function registerPeople(club: DemoClub): Promise<DemoPeople> {
  const { services, clock, logins } = club;
  const ownerPassword = randomPassword(12);
  const ownerRecord = await services.users.create({ ...staffPeople[0]!, password: ownerPassword });
  if (!ownerRecord) throw new DemoRefused('The owner could not be created.');
  const owner: DemoUser = { actor: actorOf(ownerRecord), password: ownerPassword };
  logins.push({
    id: ownerRecord.loginId,
    password: ownerPassword,
    name: ownerRecord.name,
    role: ownerRecord.role,
  });

  const register = async (person: {
    loginId: string;
    name: string;
    nameKana: string;
    role: number;
    rank?: number;
    introducer?: string;
  }) => {
    clock.now += 7 * 60 * 1000;
    const password = randomPassword(12);
    const record = await services.memberAdmin.add(owner.actor, {
      loginId: person.loginId,
      name: person.name,
      nameKana: person.nameKana,
      password,
      role: person.role,
      rank: person.rank ?? 0,
      introducer: person.introducer ?? '',
    });
    logins.push({ id: record.loginId, password, name: record.name, role: record.role });
    return { actor: actorOf(record), password } satisfies DemoUser;
  };

  const admin = await register(staffPeople[1]!);
  const staff = await register(staffPeople[2]!);
  // Staff are always registered as role 3 (product.md §9); the admin is then given role 1 directly, as an
  // operator would: no form can raise anyone's role.
  await new MemberAdminRepository(club.db).setRole(admin.actor.uid, ROLE.admin);
  admin.actor.role = ROLE.admin;
  logins.find((login) => login.id === admin.actor.loginId)!.role = ROLE.admin;

  const men: DemoUser[] = [];
  for (const man of menPeople) men.push(await register({ ...man, role: ROLE.male }));
  const women: DemoUser[] = [];
  for (const woman of womenPeople) women.push(await register({ ...woman, role: ROLE.female }));
  return { admin, staff, men, women };
}

/** News and banners (part of the content screens), then one bulk send; a part that fails becomes a note. */
async function fillContent(club: DemoClub, { admin, staff, men }: DemoPeople): Promise<string[]> {
  const { clock, services } = club;
  const notes: string[] = [];
  const optional = async (what: string, run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      notes.push(`${what} skipped: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  clock.at(Date.now() - 3 * DAY);
  await optional('news', async () => {
    await services.news.add(staff.actor, {
      type: 1,
      title: '春の会員様交流ディナーのご案内',
      body: '日頃のご愛顧に感謝し、男性会員様を対象とした交流ディナーを開催いたします。詳細は担当スタッフまでお問い合わせください。',
      images: [await picture(1200, 800, '#14213d', '#2b4474')],
    });
    clock.now += HOUR;
    await services.news.add(staff.actor, {
      type: 2,
      title: 'ヘアメイクサービス開始のお知らせ',
      body: 'セッティング当日のヘアメイクを、提携サロンにて会員様価格でご利用いただけるようになりました。',
      images: [await picture(1200, 800, '#8c3049', '#c8a663')],
    });
    clock.now += HOUR;
    await services.news.add(admin.actor, {
      type: 1,
      title: '年末年始の営業について',
      body: '12月29日から1月3日まではお休みをいただきます。期間中のメッセージには1月4日より順次ご返信いたします。',
      images: [],
    });
  });
  await optional('banners', async () => {
    await services.banners.add(staff.actor, {
      type: 1,
      url: 'https://example.com/enishi/men-dinner',
      image: await picture(1200, 340, '#14213d', '#22365f', 'Members’ Dinner'),
    });
    await services.banners.add(staff.actor, {
      type: 2,
      url: 'https://example.com/enishi/salon',
      image: await picture(1200, 340, '#8c3049', '#a3405a', 'Beauty Salon'),
    });
  });
  clock.at(Date.now() - 5 * HOUR);
  await optional('bulk send', () =>
    services.broadcasts.send(staff.actor, {
      type: 1,
      users: men.map((man) => man.actor.uid),
      message: '今週末の交流ディナーは残り3席です。ご参加希望の方はこのトークでお知らせください。',
      image: [],
    }),
  );
  return notes;
}

export async function runDemo(env: NodeJS.ProcessEnv): Promise<{ logins: Login[]; notes: string[] }> {
  const config = loadConfig(env);
  const database = await openConfiguredDatabase(config);
  try {
    await database.migrate();
    if (await new MemberAdminRepository(database.db).anyUser()) {
      throw new DemoRefused(
        'This database already has users. The demo fills only an empty database; ' +
          'point DATA_DIR (or DATABASE_URL) at a new one.',
      );
    }
    const clock = new DemoClock();
    const services = createServices(config, database, () => clock.now);
    await services.media.loadKey();
    await services.conversations.ensureStaffRoom();
    const club: DemoClub = { db: database.db, services, clock, logins: [] };

    const people = await registerPeople(club);
    await fillDeskTalks(club, people);
    await fillGroupTalk(club, people);
    const notes = await fillContent(club, people);
    await fillProfiles(
      services,
      {
        admin: people.admin.actor,
        staff: people.staff.actor,
        men: people.men.map((man) => man.actor),
        women: people.women.map((woman) => woman.actor),
      },
      () => (clock.now += 5 * 60 * 1000),
    );
    return { logins: club.logins, notes };
  } finally {
    await database.close();
  }
}

const runDirectly = process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (runDirectly) {
  runDemo(process.env).then(
    ({ logins, notes }) => {
      console.log('Demo club created. Logins (shown only this once):\n');
      const width = Math.max(...logins.map((login) => login.id.length));
      for (const login of logins) {
        const role = ja.roles[login.role] ?? `role ${login.role}`;
        console.log(`  ${login.id.padEnd(width)}  ${login.password}  ${login.name}（${role}）`);
      }
      for (const note of notes) console.log(`\nNote: ${note}`);
    },
    (error: unknown) => {
      console.error(error instanceof Error && error.name !== 'Error' ? error.message : error);
      process.exit(1);
    },
  );
}
