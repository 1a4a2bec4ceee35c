/** The member tables' CSV import (product.md §2.8): the dialog, its preview and its refusals. */
export const memberImport = {
  open: 'CSVインポート',
  title: (kind: string) => `${kind}をCSVから取り込む`,
  lead: 'CSVエクスポートと同じ見出しのCSV(UTF-8またはShift_JIS、10,000行・5MBまで)を選んでください。すべての行に誤りがないときだけ取り込めます。',
  file: 'CSVファイル',
  reading: 'ファイルを確認しています…',
  summary: (count: number, errors: number) =>
    errors === 0
      ? `${count.toLocaleString('ja-JP')}行を確認しました。誤りはありません。`
      : `${count.toLocaleString('ja-JP')}行のうち${errors.toLocaleString('ja-JP')}行に誤りがあります。直してから選び直してください。`,
  line: '行',
  ok: 'OK',
  submit: '取り込む',
  importing: '取り込んでいます…',
  cancel: '閉じる',
  done: (count: number) => `${count.toLocaleString('ja-JP')}名を取り込みました`,
  passwordsTitle: '初回パスワード',
  passwordsLead:
    '取り込んだ会員の初回パスワードです。この画面を閉じると二度と表示できません。ダウンロードして会員に渡してください。初回ログインのあと、会員は自分のパスワードを設定します。',
  passwordsDownload: '初回パスワードをダウンロード',
  passwordsFile: (kind: 'men' | 'women') =>
    kind === 'men' ? 'men-first-passwords.csv' : 'women-first-passwords.csv',
  passwordsHeader: ['ID', '初回パスワード'],
  /** The audit row of an import (product.md §2.8). */
  auditTarget: (kind: string, count: number) => `${kind} ${count.toLocaleString('ja-JP')}名`,
  auditCount: '取り込んだ人数',
  errors: {
    noFile: 'CSVファイルを選んでください',
    tooLarge: 'CSVファイルは5MBまでです',
    tooManyRows: 'CSVファイルは10,000行までです',
    unreadable: 'CSVファイルを読み取れませんでした',
    empty: 'CSVファイルに取り込む行がありません',
    badHeader: (expected: string) => `1行目の見出しは「${expected}」にしてください`,
    badColumns: (expected: number) => `列の数が見出しと合いません(${expected}列)`,
    badRank: 'ランクは一覧にある名前で入力してください',
    duplicateInFile: (line: number) => `このIDは${line}行目と重複しています`,
    hasErrors: (rows: number) => `${rows.toLocaleString('ja-JP')}行に誤りがあるため、取り込みませんでした`,
  },
} as const;
