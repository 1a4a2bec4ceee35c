/** 送信取消 (product.md §15.4): taking back one's own message within 24 hours. */
export const unsend = {
  /** What everyone in the talk sees in the message's place, live, after a reload and in a catch-up. */
  unsent: 'メッセージの送信を取り消しました',
  action: '送信取消',
  confirm: 'このメッセージの送信を取り消しますか？相手の画面からも消えます。',
  done: '送信を取り消しました',
  tooLate: '24時間を過ぎたメッセージは取り消せません',
  notOwn: '自分が送ったメッセージだけ取り消せます',
  /** The audit log's fields for a message taken back (the original stays only there). */
  auditFields: { message: 'メッセージ', images: '画像', talk: 'トーク', stamp: 'スタンプ' } as Record<
    string,
    string
  >,
  auditImages: (n: number) => `${n}枚`,
  auditUnsent: '取り消し',
} as const;
