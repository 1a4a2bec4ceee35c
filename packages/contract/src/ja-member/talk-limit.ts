export const talkLimit = {
  count: (n: number, max: number) => `${n.toLocaleString('ja-JP')} / ${max.toLocaleString('ja-JP')}文字`,
  tooLong: (max: number) =>
    `メッセージは${max.toLocaleString('ja-JP')}文字までです。入りきらない部分は切り取られました`,
  /** The stamp button's words (product.md §12.8), here so a talk loads no section more for them. */
  stamp: {
    open: 'スタンプ',
    close: 'スタンプを閉じる',
    /** How a stamp shows where only words fit: the desk's talk list, search hits, a message's menu. */
    preview: '[スタンプ]',
  },
} as const;
