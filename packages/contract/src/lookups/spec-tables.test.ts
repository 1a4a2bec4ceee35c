import { describe, expect, it } from 'vitest';
import { BROADCAST_RANK_FILTER } from '../content.js';
import { SITE_KINDS } from '../women.js';
import { ENTRY_TYPE, LOOKUPS, type FixedLookupName } from './index.js';

/*
 * The code tables against the specification's §9 (product.md §9.5): each table it spells out, with its words
 * quoted as it gives them, then our codes and Japanese labels in its order. A label changed, moved, added or
 * dropped fails here. `(空欄)` stands for a blank label.
 */

interface SpelledOut {
  name: FixedLookupName;
  /** The specification's list, as it words it (one entry per comma where `listed`). */
  spec: string;
  listed: boolean;
  codes: number[];
  labels: string;
}

const range = (first: number, last: number) =>
  Array.from({ length: last - first + 1 }, (_, index) => first + index);

const SPELLED_OUT: SpelledOut[] = [
  {
    name: 'areas',
    spec: 'blank, Tokyo, Yokohama, Sapporo, Sendai, Nagoya, Osaka, Fukuoka, Okinawa, other',
    listed: true,
    codes: range(0, 9),
    labels: '(空欄)、東京、横浜、札幌、仙台、名古屋、大阪、福岡、沖縄、その他',
  },
  {
    name: 'prefectures',
    spec: '1-47 in standard order plus 48 overseas',
    listed: false,
    codes: range(1, 48),
    labels:
      '北海道、青森県、岩手県、宮城県、秋田県、山形県、福島県、茨城県、栃木県、群馬県、埼玉県、千葉県、東京都、神奈川県、' +
      '新潟県、富山県、石川県、福井県、山梨県、長野県、岐阜県、静岡県、愛知県、三重県、滋賀県、京都府、大阪府、兵庫県、' +
      '奈良県、和歌山県、鳥取県、島根県、岡山県、広島県、山口県、徳島県、香川県、愛媛県、高知県、福岡県、佐賀県、長崎県、' +
      '熊本県、大分県、宮崎県、鹿児島県、沖縄県、海外',
  },
  {
    name: 'womenRanks',
    spec: 'general 2, 3, 4, platinum, VIP, special VIP, black, out of rank, platinum 3',
    listed: true,
    codes: range(0, 8),
    labels: '一般2、一般3、一般4、プラチナ、VIP、スペシャルVIP、ブラック、ランク外、プラチナ3',
  },
  {
    name: 'menRankLabels',
    spec: 'general, client, platinum, black, VIP, special, trial',
    listed: true,
    codes: range(0, 6),
    labels: '一般、クライアント、プラチナ、ブラック、VIP、スペシャル、トライアル',
  },
  { name: 'importance', spec: '◎, 〇, △, ×', listed: true, codes: range(1, 4), labels: '◎、〇、△、×' },
  {
    name: 'cupSizes',
    spec: 'A to M or above and unknown',
    listed: false,
    codes: [...range(1, 13), 0],
    labels: 'A、B、C、D、E、F、G、H、I、J、K、L、M以上、不明',
  },
  {
    name: 'employmentTypes',
    spec: 'part-time, dispatched, contract, full-time, other',
    listed: true,
    codes: range(1, 5),
    labels: 'パート・アルバイト、派遣社員、契約社員、正社員、その他',
  },
  {
    name: 'marriage',
    spec: 'married, divorced, unmarried',
    listed: true,
    codes: range(1, 3),
    labels: '既婚、離婚、未婚',
  },
  { name: 'children', spec: 'none, yes', listed: true, codes: range(0, 1), labels: 'なし、あり' },
  {
    name: 'drinking',
    spec: 'cannot drink, under 20, weak, normal, strong',
    listed: true,
    codes: range(0, 4),
    labels: '飲めない、20歳未満、弱い、普通、強い',
  },
  {
    name: 'foodAllergies',
    spec: 'egg, milk, wheat, buckwheat, shellfish, other',
    listed: true,
    codes: range(1, 6),
    labels: '卵、乳、小麦、そば、えび・かに、その他',
  },
  {
    name: 'jointParty',
    spec: 'OK, NG, to be discussed',
    listed: true,
    codes: range(1, 3),
    labels: 'OK、NG、要相談',
  },
  {
    name: 'dateTypes',
    spec: 'meal only, from first meal, feeling',
    listed: true,
    codes: range(1, 3),
    labels: '食事のみ、初回の食事から、フィーリング',
  },
  {
    name: 'contactMethods',
    spec: 'LINE, e-mail, phone, SMS, other',
    listed: true,
    codes: range(1, 5),
    labels: 'LINE、メール、電話、SMS、その他',
  },
  {
    name: 'entryTypes',
    spec: 'REGIST 0, UP 1, ENTRY 2, OUT 3, MATTER 4, BLACK 5',
    listed: true,
    codes: range(0, 5),
    labels: '登録、掲載中、エントリー、退会、案件、ブラック',
  },
  // The user record's rank (§1 of the specification: 1 general … 6 black); 0 is the rank staff are
  // registered with (§9), which has no name there: 未設定 is ours.
  {
    name: 'menRanks',
    spec: 'unset, general, platinum, VIP, special, client, black',
    listed: true,
    codes: range(0, 6),
    labels: '未設定、一般、プラチナ、VIP、スペシャル、クライアント、ブラック',
  },
];

/** Tables the specification names without their labels: the labels are the club's, only their presence is pinned. */
const NAMED_ONLY: FixedLookupName[] = [
  'occupations',
  'sideJobs',
  'tobacco',
  'tobaccoView',
  'bloodTypes',
  'tattooParts',
  'education',
  'languages',
  'languageLevels',
  'partnerKinds',
  'living',
  'plasticSurgeryParts',
  'hairLoss',
  'breastAugmentation',
  'timeSpans',
  'braces',
  'holidays',
  'golf',
  'looks',
  'preferredMan',
  'personality',
  'motivations',
  'foreignerVip',
  'idDocuments',
  'menDated',
  'howDated',
  'trips',
  'timeSlots',
  'ageDecades',
];

const shown = (name: FixedLookupName) => LOOKUPS[name].map((item) => item.label || '(空欄)').join('、');

describe('code tables against the specification’s §9', () => {
  it.each(SPELLED_OUT)('$name: $spec', ({ name, spec, listed, codes, labels }) => {
    expect(shown(name)).toBe(labels);
    expect(LOOKUPS[name].map((item) => item.code)).toEqual(codes);
    if (listed) expect(labels.split('、')).toHaveLength(spec.split(', ').length);
  });

  it('has every table of §9, and no other', () => {
    const known = [...SPELLED_OUT.map((table) => table.name), ...NAMED_ONLY, 'registerTypeRank'];
    expect(Object.keys(LOOKUPS).sort()).toEqual([...new Set(known)].sort());
    for (const name of NAMED_ONLY) {
      expect(LOOKUPS[name].length, name).toBeGreaterThan(0);
      for (const item of LOOKUPS[name]) expect(item.label, name).not.toBe('');
    }
  });

  it('keeps the ranges and the other codes of §9', () => {
    expect(LOOKUPS.occupations.map((item) => item.code)).toEqual(range(1, 53));
    expect(LOOKUPS.sideJobs.map((item) => item.code)).toEqual(range(0, 16));
    // Register type to rank: 5 gives 6, 4 gives 4.
    expect(LOOKUPS.registerTypeRank.map((item) => [item.code, item.parent])).toEqual([
      [4, 4],
      [5, 6],
    ]);
    expect(ENTRY_TYPE).toEqual({ REGIST: 0, UP: 1, ENTRY: 2, OUT: 3, MATTER: 4, BLACK: 5 });
    // Bulk-send rank filter: 0 all, 1, 2, 3, 4, 6 (5 absent); site kinds 1-5.
    expect(BROADCAST_RANK_FILTER).toEqual([0, 1, 2, 3, 4, 6]);
    expect(SITE_KINDS).toEqual([1, 2, 3, 4, 5]);
  });
});
