import { numbered } from './items.js';

/* Appearance and body (product.md §9.5). */

/**
 * Cup sizes A to M以上, then unknown, in the specification's order (product.md §9.5). The code rises with the
 * size (A 1 … M以上 13) so that a range stays a range; 不明 is 0, listed last.
 */
export const CUP_SIZES = [
  ...numbered(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M以上']),
  { code: 0, label: '不明' },
];

export const BLOOD_TYPES = numbered(['A型', 'B型', 'O型', 'AB型', '不明']);

/** Looks: the "type" a woman is filed under and men filter by. */
export const LOOKS = numbered([
  'かわいい系',
  'きれい系',
  'クール系',
  'ナチュラル系',
  'ギャル系',
  'お嬢様系',
  'モデル系',
  'ハーフ系',
  '癒し系',
  'スポーティ系',
]);

export const TATTOO_PARTS = numbered(
  ['なし', '腕', '脚', '背中', '胸', '腰', '首', '手首', '足首', 'その他'],
  0,
);

export const PLASTIC_SURGERY_PARTS = numbered(
  ['なし', '目', '鼻', '輪郭', '口元', '胸', '脂肪吸引', '肌', 'その他'],
  0,
);

/** Hair loss (men), breast augmentation (women) and braces: a state, with a time span where it applies. */
export const HAIR_LOSS = numbered(['なし', '少し気になる', '治療中', '治療済み'], 0);
export const BREAST_AUGMENTATION = numbered(['なし', 'あり', '予定あり'], 0);
export const TIME_SPANS = numbered(['1年未満', '1〜3年', '3〜5年', '5〜10年', '10年以上']);
export const BRACES = numbered(['なし', '矯正中', '矯正済み'], 0);
