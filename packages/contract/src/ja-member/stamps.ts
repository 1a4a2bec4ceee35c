/** スタンプ (product.md §12.8): the picker beside the comment box, the talk, pushes and the staff's screen. */
export const stamps = {
  panel: 'スタンプを選ぶ',
  recent: '最近使ったスタンプ',
  loading: 'スタンプを読み込んでいます…',
  loadFailed: 'スタンプを読み込めませんでした',
  none: '使えるスタンプはまだありません',
  send: (label: string) => `スタンプ「${label}」を送信`,
  /** The lock screen's words for a stamp (product.md §16). */
  push: 'スタンプが届きました',
  unknown: 'このスタンプは使えません',
} as const;
