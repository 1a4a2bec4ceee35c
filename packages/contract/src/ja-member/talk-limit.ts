export const talkLimit = {
  count: (n: number, max: number) => `${n.toLocaleString('ja-JP')} / ${max.toLocaleString('ja-JP')}文字`,
  tooLong: (max: number) =>
    `メッセージは${max.toLocaleString('ja-JP')}文字までです。入りきらない部分は切り取られました`,
} as const;
