import { numbered } from './items.js';

/**
 * Areas 0-9 (product.md §9.5): 0 is blank, as the specification has it; a form offers it as its own 未設定
 * (no code), and a profile stores it as no area.
 */
export const AREAS = numbered(
  ['', '東京', '横浜', '札幌', '仙台', '名古屋', '大阪', '福岡', '沖縄', 'その他'],
  0,
);

/** Prefectures 1-47 in the standard (JIS X 0401) order, and 48 for abroad. */
export const PREFECTURES = numbered([
  '北海道',
  '青森県',
  '岩手県',
  '宮城県',
  '秋田県',
  '山形県',
  '福島県',
  '茨城県',
  '栃木県',
  '群馬県',
  '埼玉県',
  '千葉県',
  '東京都',
  '神奈川県',
  '新潟県',
  '富山県',
  '石川県',
  '福井県',
  '山梨県',
  '長野県',
  '岐阜県',
  '静岡県',
  '愛知県',
  '三重県',
  '滋賀県',
  '京都府',
  '大阪府',
  '兵庫県',
  '奈良県',
  '和歌山県',
  '鳥取県',
  '島根県',
  '岡山県',
  '広島県',
  '山口県',
  '徳島県',
  '香川県',
  '愛媛県',
  '高知県',
  '福岡県',
  '佐賀県',
  '長崎県',
  '熊本県',
  '大分県',
  '宮崎県',
  '鹿児島県',
  '沖縄県',
  '海外',
]);
