import { numbered } from './items.js';

/* Dating preferences and what staff record about meetings (product.md §9.5). */

export const JOINT_PARTY = numbered(['OK', 'NG', '要相談']);
/** Date type, the specification's three (product.md §9.5): meal only, from the first meal, by feeling. */
export const DATE_TYPES = numbered(['食事のみ', '初回の食事から', 'フィーリング']);
export const PREFERRED_MAN = numbered([
  '包容力のある人',
  '話が面白い人',
  '落ち着いた人',
  '年上',
  '同世代',
  '経営者',
  'スポーツマン',
  '清潔感のある人',
  'こだわりなし',
]);
export const PERSONALITY = numbered([
  '明るい',
  'おっとり',
  '聞き上手',
  '話し上手',
  'しっかり者',
  '天然',
  '人見知り',
  'さっぱり',
  '甘え上手',
]);
export const MOTIVATIONS = numbered([
  '素敵な出会い',
  '人脈づくり',
  '将来のパートナー探し',
  '食事を楽しみたい',
  'その他',
]);
/** Foreigners as partners, asked for VIP introductions. */
export const FOREIGNER_VIP = numbered(['OK', 'NG', '英語が話せればOK', '要相談']);
export const ID_DOCUMENTS = numbered([
  '運転免許証',
  'パスポート',
  'マイナンバーカード',
  '健康保険証',
  '在留カード',
  'その他',
]);
export const MEN_DATED = numbered(['0人', '1〜5人', '6〜10人', '11〜20人', '21人以上'], 0);
export const HOW_DATED = numbered(['当クラブ', '他のクラブ', 'アプリ', '知人の紹介', 'その他']);
export const TRIPS = numbered(['不可', '国内なら可', '海外も可', '要相談']);
export const TIME_SLOTS = numbered(['平日昼', '平日夜', '土日昼', '土日夜', 'いつでも']);
export const AGE_DECADES = numbered(['10代', '20代', '30代', '40代', '50代', '60代', '70代以上'], 1);
