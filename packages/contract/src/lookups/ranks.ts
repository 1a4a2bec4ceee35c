import { numbered, type LookupItem } from './items.js';

/**
 * Women's ranks 0-8, in the specification's order and wording (product.md §9.5): general 2, 3, 4, platinum,
 * VIP, special VIP, black, out of rank, platinum 3. 0 (一般2) is where a new woman starts. Codes before
 * migration 0012 were letter grades; product.md §9.5 gives the mapping.
 */
export const WOMEN_RANKS = numbered(
  ['一般2', '一般3', '一般4', 'プラチナ', 'VIP', 'スペシャルVIP', 'ブラック', 'ランク外', 'プラチナ3'],
  0,
);
/** Ranks "V or above" (VIP and special VIP): what site kind 4 shows (product.md §9.6). */
export const WOMEN_RANKS_V_OR_ABOVE: readonly number[] = [4, 5];

/** Men's ranks 0-6 (the `rank` of a man's user record, product.md §1: 1 general … 6 black). */
export const MEN_RANKS_LABELS = numbered(
  ['未設定', '一般', 'プラチナ', 'VIP', 'スペシャル', 'クライアント', 'ブラック'],
  0,
);

/**
 * The men's second label set of §9 (product.md §9.5), numeric 0-6 in the specification's order: general,
 * client, platinum, black, VIP, special, trial. Served by `/api/lookups` as `menRankLabels`.
 */
export const MEN_RANK_LABELS = numbered(
  ['一般', 'クライアント', 'プラチナ', 'ブラック', 'VIP', 'スペシャル', 'トライアル'],
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
