import { jaMember, type AuditRow, type Lookups } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { auditCsv, auditLines, rowActionLabel, subjectName } from './audit-text';

const base: AuditRow = {
  id: 1,
  date: '2026-11-26T01:00:00.000Z',
  action: 'photo',
  actor: { uid: 1, name: '山田 オーナー' },
  target: { uid: 9, role: 101, name: '田中 一郎' },
  before: null,
  after: null,
  password_reset: false,
  changes: { photo: [null, 'added'] },
};
const lookups = {
  prefectures: [{ code: 13, label: '東京都' }],
  languages: [
    { code: 1, label: '英語' },
    { code: 2, label: '中国語' },
  ],
} as unknown as Lookups;
const snapshot = { id: 'tanaka', name: '田中 一郎', role: 101, rank: 1, introducer: '', image: false };

describe('the audit log in words', () => {
  it('says a photo was added, never the raw "added", and names the person, never "#9"', () => {
    expect(auditLines(base, lookups)).toEqual([{ field: '写真', before: '', after: '追加' }]);
    expect(subjectName(base)).toBe('田中 一郎');
    expect(subjectName({ ...base, target: { uid: 9, role: 101, name: '' } })).toBe(
      jaMember.audit.unknownPerson,
    );
  });

  it('shows codes by their labels and empty values as 未設定', () => {
    const row: AuditRow = {
      ...base,
      action: 'profile',
      changes: { prefecture: [null, 13], languages: [[1], [1, 2]] },
    };
    expect(auditLines(row, lookups)).toEqual([
      { field: '都道府県', before: '未設定', after: '東京都' },
      { field: '話せる言語', before: '英語', after: '英語・中国語' },
    ]);
  });

  it('names a changed reading as ふりがな, and none in a row written before readings existed', () => {
    const row: AuditRow = { ...base, action: 'update', changes: null, before: snapshot };
    expect(auditLines({ ...row, after: { ...snapshot, name_kana: 'たなか いちろう' } }, lookups)).toEqual([
      { field: 'ふりがな', before: '未設定', after: 'たなか いちろう' },
    ]);
    expect(auditLines({ ...row, after: { ...snapshot, name_kana: null } }, lookups)).toEqual([]);
  });

  it('lists only the fields an update changed, rank by its name, and a password change without its value', () => {
    const row: AuditRow = {
      ...base,
      action: 'update',
      changes: null,
      before: snapshot,
      after: { ...snapshot, rank: 3, image: true },
      password_reset: true,
    };
    expect(auditLines(row, lookups)).toEqual([
      { field: 'ランク', before: '一般', after: 'VIP' },
      { field: 'アイコン画像', before: 'なし', after: 'あり' },
      { field: 'パスワード', before: '', after: '変更' },
    ]);
  });

  it('says a picture change changed アイコン画像 and lists nothing that stayed the same', () => {
    const first: AuditRow = {
      ...base,
      action: 'image',
      changes: null,
      before: snapshot,
      after: { ...snapshot, image: true },
    };
    expect(auditLines(first, lookups)).toEqual([{ field: 'アイコン画像', before: 'なし', after: 'あり' }]);
    const replaced: AuditRow = { ...first, before: { ...snapshot, image: true } };
    expect(auditLines(replaced, lookups)).toEqual([{ field: 'アイコン画像', before: '', after: '変更' }]);
  });

  it('writes CSV for Excel: BOM, CRLF, quoted cells, formulas defused', () => {
    const csv = auditCsv([{ ...base, target: { uid: 9, role: 101, name: '=HYPERLINK("x")' } }], lookups);
    expect(csv.startsWith('\uFEFF"日時","操作"')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(
      '"写真変更","男性会員","\'=HYPERLINK(""x"")","山田 オーナー","写真","","追加"',
    );
  });

  it('keeps a message taken back (送信取消): the talk, the original words and its pictures', () => {
    const row: AuditRow = {
      ...base,
      action: 'unsend',
      actor: { uid: 9, name: '田中 一郎' },
      changes: {
        talk: ['田中 一郎', 12],
        message: ['明日の待ち合わせは渋谷で', jaMember.unsend.unsent],
        images: [['m1', 'm2'], []],
      },
    };
    expect(auditLines(row, lookups)).toEqual([
      { field: 'トーク', before: '田中 一郎 (ID 12)', after: '' },
      { field: 'メッセージ', before: '明日の待ち合わせは渋谷で', after: '取り消し' },
      { field: '画像', before: '2枚', after: '取り消し' },
    ]);
  });

  it('says a desk talk’s status and 担当 in words (product.md §2.6)', () => {
    const status: AuditRow = { ...base, action: 'desk', changes: { desk_status: ['done', 'open'] } };
    expect(rowActionLabel(status)).toBe('対応状況');
    expect(auditLines(status, lookups)).toEqual([{ field: '対応状況', before: '対応済み', after: '未対応' }]);
    const handed: AuditRow = { ...base, action: 'desk', changes: { assignee: [null, '受付 佐藤'] } };
    expect(auditLines(handed, lookups)).toEqual([{ field: '担当', before: '担当なし', after: '受付 佐藤' }]);
  });

  it('names a setting confirmed despite an overlap (product.md §18.5): which, the one it meets, and why', () => {
    const row: AuditRow = {
      ...base,
      action: 'update',
      actor: { uid: 3, name: '受付 スタッフ' },
      target: { uid: 9, role: 101, name: '山田 太郎' },
      changes: {
        setting: [null, { id: 14, at: '2026-12-01T19:30', man: '山田 太郎', woman: '田中 由美' }],
        overlaps: [null, [{ id: 12, at: '2026-12-01T19:00', man: '山田 太郎', woman: '佐藤 花子' }]],
        overlapReason: [null, '本人の希望'],
      },
    };
    expect(rowActionLabel(row)).toBe('セッティング重複確定');
    expect(rowActionLabel({ ...base, action: 'update', changes: null })).toBe('修正');
    expect(auditLines(row, lookups)).toEqual([
      {
        field: '確定したセッティング',
        before: '',
        after: 'No.14 12月1日(火) 19:30 山田 太郎さん・田中 由美さん',
      },
      {
        field: '重なるセッティング',
        before: '',
        after: 'No.12 12月1日(火) 19:00 山田 太郎さん・佐藤 花子さん',
      },
      { field: '理由', before: '', after: '本人の希望' },
    ]);
    expect(auditCsv([row], lookups)).toContain(
      '"セッティング重複確定","男性会員","山田 太郎","受付 スタッフ","理由","","本人の希望"',
    );
  });

  it('says which weekdays’ hours changed, and which closing was added or deleted (product.md §9.3)', () => {
    const day = { open: true, opens: '12:00', closes: '20:00' };
    const before = [{ ...day, open: false }, day, day, day, day, day, day];
    const after = [
      { open: true, opens: '10:00', closes: '17:00' },
      day,
      day,
      day,
      day,
      day,
      { ...day, open: false },
    ];
    const hours: AuditRow = {
      ...base,
      action: 'calendar',
      target: { uid: 1, role: 1, name: '営業時間' },
      changes: { hours: [before, after] },
    };
    expect(rowActionLabel(hours)).toBe('営業日の変更');
    expect(auditLines(hours, lookups)).toEqual([
      { field: '土曜日', before: '12:00〜20:00', after: '休み' },
      { field: '日曜日', before: '休み', after: '10:00〜17:00' },
    ]);
    const closing = { name: '年末年始', start: '2026-12-29', end: '2027-01-03' };
    const added: AuditRow = { ...hours, changes: { closing: [null, closing] } };
    expect(auditLines(added, lookups)).toEqual([
      { field: '休業日', before: '', after: '年末年始 2026年12月29日(火) 〜 2027年1月3日(日)' },
    ]);
  });

  it('says how many members a CSV import registered, and their IDs', () => {
    const row: AuditRow = {
      ...base,
      action: 'import',
      target: { uid: 1, role: 101, name: '男性会員 2名' },
      changes: { count: [null, 2], ids: [null, ['imp-1', 'imp-2']] },
    };
    expect(rowActionLabel(row)).toBe('CSVインポート');
    expect(auditLines(row, lookups)).toEqual([
      { field: '取り込んだ人数', before: '', after: '2' },
      { field: 'ID', before: '', after: 'imp-1、imp-2' },
    ]);
  });
});
