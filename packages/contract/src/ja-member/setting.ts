export const setting = {
  title: 'セッティング依頼',
  history: 'セッティング履歴',
  requests: 'セッティング依頼一覧',
  open: 'セッティングを依頼する',
  lead: 'ご希望の日時を3つお選びください。スタッフが調整してご連絡します。',
  preferred: (n: number) => `第${n}希望`,
  note: 'ご要望（任意）',
  send: '依頼を送信',
  sent: 'セッティング依頼を送信しました',
  cancel: '依頼を取り消す',
  cancelConfirm: 'このセッティング依頼を取り消しますか？',
  cancelled: 'セッティング依頼を取り消しました',
  arrange: 'この日時で確定',
  arranged: 'セッティングを確定しました',
  place: '場所',
  placePlaceholder: '例：銀座 〇〇ホテル ロビー',
  decline: 'お断りする',
  declineReason: 'お断りの理由',
  declined: 'セッティング依頼をお断りしました',
  none: 'セッティング依頼はありません',
  empty: 'セッティング依頼はまだありません',
  emptyNext: '女性一覧で気になる方のプロフィールを開き、「セッティングを依頼する」から依頼できます。',
  emptyWoman: 'セッティングはまだありません',
  emptyWomanNext: 'スタッフがセッティングを確定すると、ここに日時と場所が表示されます。',
  toWomen: '女性一覧を見る',
  man: '男性',
  woman: '女性',
  summaryOf: (who: string, name: string) => `${who} ${name}さんのプロフィール`,
  photoOf: (name: string) => `${name}さんの写真`,
  noSummary: 'プロフィール未登録',
  requestedAt: (date: string) => `依頼日 ${date}`,
  slotArranged: (slot: string) => `確定：${slot}`,
  placeIs: (place: string) => `場所：${place}`,
  reasonIs: (reason: string) => `理由：${reason}`,
  openTalk: 'グループトークを開く',
  // The same four words head the back office's board (board.columns).
  status: {
    requested: '依頼中',
    arranged: '確定',
    declined: 'お断り',
    cancelled: '取消',
  } as Record<string, string>,
  filterAll: 'すべて',
  announcement: (date: string, place: string) =>
    `セッティングが決まりました。\n日時：${date}\n場所：${place}\n当日はお気をつけてお越しください。`,
  /** A woman only the enquiry service knows has no talk here: the man reads the date in his desk talk. */
  arrangedMessage: (name: string, date: string, place: string) =>
    `${name}さんとのセッティングが決まりました。\n日時：${date}\n場所：${place}\n当日はお気をつけてお越しください。`,
  /** Staff see that the woman is one of the enquiry service's, with her number there (decision 023). */
  fromService: (id: number) => `女性一覧のサービスの女性（No.${id}）`,
  declinedMessage: (name: string, reason: string) =>
    `${name}さんとのセッティング依頼は、今回はお見送りとなりました。\n理由：${reason}`,
  /** No double booking (product.md §18.5): `at` is a slot as people read it (slotLabel). */
  overlap: {
    heading: 'ダブルブッキングの注意',
    /** Staff, on a waiting request: one slot and the confirmed setting it meets. */
    warning: (slot: number, person: string, at: string, partner: string, id: number) =>
      `第${slot}希望は、${person}さんの確定済みのセッティング（No.${id}：${at}、${partner}さんと）と前後2時間以内で重なっています`,
    reason: '重なっていても確定する理由',
    reasonHint: '理由は監査ログに記録されます',
    arrangeAnyway: 'それでも確定する',
    /** The man, in his request form before sending: his own confirmed setting; he may still send. */
    own: (slot: number, at: string, partner: string) =>
      `第${slot}希望は、確定済みのセッティング（${at}、${partner}さんと）と前後2時間以内で重なっています`,
    ownNext: 'このまま送信することもできます。日程はスタッフが調整してご連絡します。',
  },
  errors: {
    slotRequired: '希望日時を3つ入力してください',
    slotInvalid: '希望日時の形式が正しくありません',
    slotPast: '希望日時は現在より後の日時を選んでください',
    slotsSame: '希望日時はそれぞれ異なる日時を選んでください',
    noteTooLong: 'ご要望は500文字以内で入力してください',
    slotChoice: '確定する日時を選んでください',
    placeRequired: '場所を入力してください',
    reasonRequired: 'お断りの理由を入力してください',
    notRequested: 'この依頼はすでに処理されています',
    /** 409: a confirmation within two hours of a confirmed setting of the same man or woman, without a reason. */
    overlap: (person: string, at: string, partner: string, id: number) =>
      `${person}さんには${at}に${partner}さんとのセッティング（No.${id}）が確定しています。前後2時間以内のため、確定するには理由を入力してください`,
    overlapReasonRequired: '重なるセッティングがあります。それでも確定する場合は理由を入力してください',
    notWoman: 'この女性には依頼できません',
    notInService: 'この女性は女性一覧のサービスに見つかりませんでした。一覧を読み込み直してください。',
  },
} as const;
