import { numbered } from './items.js';

/* Lifestyle, family and education (product.md §9.5). */

/**
 * Marriage and children, in the specification's order and wording (product.md §9.5): married, divorced,
 * unmarried; none, yes. Codes before migration 0014 are in product.md §9.5.
 */
export const MARRIAGE = numbered(['既婚', '離婚', '未婚']);
export const CHILDREN = numbered(['なし', 'あり'], 0);
/** Drinking ("sake" of the women's list filter). */
export const DRINKING = numbered(['飲めない', '20歳未満', '弱い', '普通', '強い'], 0);
/** Tobacco as staff record it (kind of smoking)… */
export const TOBACCO = numbered(
  ['吸わない', '紙巻き', '加熱式', '電子たばこ', '時々吸う', '相手が嫌なら吸わない'],
  0,
);
/** …and as a man sees it on the women's list (a plain answer). */
export const TOBACCO_VIEW = numbered(['吸わない', '吸う', '時々吸う'], 0);
/** Food allergies, the specification's six (product.md §9.5); none is an empty list, not a code. */
export const FOOD_ALLERGIES = numbered(['卵', '乳', '小麦', 'そば', 'えび・かに', 'その他']);
export const EDUCATION = numbered([
  '中学卒',
  '高校卒',
  '専門学校卒',
  '短大卒',
  '大学卒',
  '大学院卒',
  '大学在学中',
  'その他',
]);
export const LANGUAGES = numbered([
  '英語',
  '中国語',
  '韓国語',
  'フランス語',
  'スペイン語',
  'ドイツ語',
  'イタリア語',
  'ロシア語',
  'タイ語',
  'その他',
]);
export const LANGUAGE_LEVELS = numbered(['日常会話', 'ビジネス', 'ネイティブ']);
/** Partner kinds: whether there is someone now. */
export const PARTNER_KINDS = numbered(['いない', '恋人あり', '配偶者あり', 'パトロンあり'], 0);
export const LIVING = numbered(['一人暮らし', '実家', 'ルームシェア', '家族と同居', 'その他']);
export const HOLIDAYS = numbered(['土日祝', '平日', '不定期', 'シフト制']);
export const GOLF = numbered(['しない', '初心者', '時々', 'よく行く', '上級者'], 0);
/** Contact methods, in the specification's order (product.md §9.5): LINE, e-mail, phone, SMS, other. */
export const CONTACT_METHODS = numbered(['LINE', 'メール', '電話', 'SMS', 'その他']);
