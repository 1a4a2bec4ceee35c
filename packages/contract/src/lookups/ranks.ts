import { numbered, type LookupItem } from './items.js';

/**
 * Women's ranks 0-8 (product.md §9.5). 0 is "not ranked"; the letters rise with the club's grading, and V
 * (code 6) is the threshold of site kind 4 ("own and other women at V or above", product.md §9.6).
 */
export const WOMEN_RANKS = numbered(['未設定', 'D', 'C', 'B', 'A', 'S', 'V', 'VV', 'VVV'], 0);
/** The code of rank V: site kind 4 shows women at this rank or above. */
export const WOMEN_RANK_V = 6;

/** Men's rank labels 0-6 (the `rank` of a man's user record, product.md §1). */
export const MEN_RANKS_LABELS = numbered(
  ['未設定', '一般', 'プラチナ', 'VIP', 'スペシャル', 'クライアント', 'ブラック'],
  0,
);

/**
 * Register type to men's rank (product.md §9.5): a man registered with type 5 gets rank 6, with type 4 rank 4.
 * `code` is the register type, `parent` the rank it gives, `label` that rank's name.
 */
export const REGISTER_TYPE_RANK: LookupItem[] = [
  { code: 4, label: 'スペシャル', parent: 4 },
  { code: 5, label: 'ブラック', parent: 6 },
];

/** Entry types (product.md §9.7): REGIST 0, UP 1, ENTRY 2, OUT 3, MATTER 4, BLACK 5. */
export const ENTRY_TYPE = { REGIST: 0, UP: 1, ENTRY: 2, OUT: 3, MATTER: 4, BLACK: 5 } as const;
export const ENTRY_TYPES = numbered(['登録', '掲載中', 'エントリー', '退会', '案件', 'ブラック'], 0);

/** Importance marks 1-4 for staff's sales notes. */
export const IMPORTANCE = numbered(['◎', '〇', '△', '×']);
