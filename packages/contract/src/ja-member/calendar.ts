/**
 * The admin's club calendar (product.md §9.3): business hours per weekday, closing days such as 年末年始 or
 * お盆, and their checks.
 */
export const calendar = {
  title: '営業時間・休業日',
  intro:
    '営業時間と休業日は、自動応答が営業時間を伝え、次の返信日時を案内するときに使われます(祝日はいつも休みです)。',
  hoursTitle: '曜日ごとの営業時間',
  weekday: (weekday: string) => `${weekday}曜日`,
  openDay: '営業する',
  opens: '開始',
  closes: '終了',
  closedDay: '休み',
  saveHours: '営業時間を保存する',
  hoursSaved: '営業時間を保存しました',
  hoursPreview: (text: string) => `自動応答での表示: 営業時間は${text}です。`,
  listTitle: '登録中の休業日',
  empty: '登録中の休業日はありません',
  name: '名前',
  namePlaceholder: '例: 年末年始',
  start: '開始日',
  end: '終了日',
  /** Dates already in words (2026年12月29日(火)). */
  period: (start: string, end: string) => (start === end ? start : `${start} 〜 ${end}`),
  /** The audit log's rows of the calendar (product.md §2.8). */
  audit: {
    hours: '営業時間',
    closing: '休業日',
  },
  addTitle: '休業日を追加',
  add: '追加する',
  loading: '休業日を読み込んでいます…',
  added: '休業日を追加しました',
  remove: (name: string) => `${name}を削除する`,
  removeShort: '削除する',
  removed: '休業日を削除しました',
  failed: '休業日を保存できませんでした',
  errors: {
    nameRequired: '休業日の名前を入力してください',
    badDate: '日付は2026-12-29のように正しい日付で入力してください',
    endBeforeStart: '終了日は開始日と同じか、それより後の日付にしてください',
    tooLong: '休業日は1回につき60日までです',
    overlaps: (name: string) => `ほかの休業日(${name})と期間が重なっています`,
    notFound: 'その休業日は見つかりません',
    badTime: '時刻は12:00のように入力してください',
    closesBeforeOpens: (weekday: string) => `${weekday}曜日の終了時刻は開始時刻より後にしてください`,
    noOpenDay: '営業する曜日を1日以上選んでください',
  },
} as const;
