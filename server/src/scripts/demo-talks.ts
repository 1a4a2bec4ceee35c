import { randomUUID } from 'node:crypto';
import { DAY, HOUR, type DemoClub, type DemoPeople, type DemoUser } from './demo-club.js';

/* The demo's talks (scripts/demo.ts): desk talks with everyone, and one group talk with its history. */

/** The member's talk with the staff desk. */
export async function deskOf(club: DemoClub, member: DemoUser): Promise<number> {
  const page = await club.services.conversations.list(member.actor, { type: 'staff', search: '', page: 0 });
  return page.rows[0]!.id;
}

/** One message, then a few minutes pass. */
export async function say(
  club: DemoClub,
  who: DemoUser,
  conversationId: number,
  message: string,
  extra: { announce?: boolean } = {},
) {
  const result = await club.services.messages.send(who.actor, {
    type: 'text',
    conversation_id: conversationId,
    conversation_type: null,
    message,
    image: [],
    reply: null,
    announce: extra.announce ?? false,
    client_id: randomUUID(),
  });
  club.clock.now += 3 * 60 * 1000 + Math.floor(Math.random() * 9 * 60 * 1000);
  return result;
}

/** Desk talks: a welcome for everyone, and a few real exchanges. */
export async function fillDeskTalks(club: DemoClub, { admin, staff, men, women }: DemoPeople) {
  const { clock, services } = club;
  clock.at(Date.now() - 9 * DAY);
  for (const member of [...men, ...women]) {
    await say(
      club,
      staff,
      await deskOf(club, member),
      `${member.actor.name.split(' ')[1]}様、ご入会ありがとうございます。担当の森です。ご希望やご不明な点があれば、いつでもこちらのトークでお知らせください。`,
    );
  }
  clock.at(Date.now() - 6 * DAY);
  const taro = men[2]!;
  const taroDesk = await deskOf(club, taro);
  await say(club, taro, taroDesk, 'こんにちは。来週末にセッティングをお願いできますか？');
  await say(
    club,
    staff,
    taroDesk,
    'かしこまりました。ご希望の日時と、お食事のジャンルがあればお聞かせください。',
  );
  await say(club, taro, taroDesk, '土曜の夜、和食だと嬉しいです。');
  await say(club, admin, taroDesk, 'ありがとうございます。お相手の方と調整のうえ、改めてご連絡いたします。');
  const misaki = women[0]!;
  const misakiDesk = await deskOf(club, misaki);
  await say(club, misaki, misakiDesk, 'プロフィール写真を変更したいのですが、どうすればよいですか？');
  await say(club, staff, misakiDesk, 'マイページの「画像を変更」から写真を選んでいただけます。');
  await services.messages.markRead(misaki.actor, misakiDesk);
  clock.at(Date.now() - 2 * HOUR);
  await say(club, men[0]!, await deskOf(club, men[0]!), '今月のセッティングの件でご相談があります。');
}

/** A group talk: the man and the woman of the setting, with the staff. */
export async function fillGroupTalk(club: DemoClub, { staff, men, women }: DemoPeople) {
  const { clock, services } = club;
  const taro = men[2]!;
  const misaki = women[0]!;
  clock.at(Date.now() - 4 * DAY);
  const group = await services.conversations.createGroupTalk(staff.actor, {
    manId: taro.actor.uid,
    womanId: misaki.actor.uid,
  });
  await say(
    club,
    staff,
    group.id,
    '翔太様、美咲様、このたびはご縁をいただきありがとうございます。こちらのグループでお食事の詳細をご案内いたします。',
  );
  await say(
    club,
    staff,
    group.id,
    '【セッティングのご案内】土曜日 19:00 銀座の和食店にて。ご予約はスタッフが承っております。',
    { announce: true },
  );
  await say(club, taro, group.id, 'よろしくお願いします。楽しみにしています。');
  await say(club, misaki, group.id, 'よろしくお願いいたします。当日お会いできるのを楽しみにしています。');
  clock.at(Date.now() - 1 * DAY);
  await say(
    club,
    staff,
    group.id,
    '本日はありがとうございました。ご感想はそれぞれのスタッフとのトークでお聞かせください。',
  );
  await services.messages.markRead(taro.actor, group.id);
}
