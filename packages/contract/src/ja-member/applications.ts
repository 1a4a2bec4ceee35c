/** The applications inbox (product.md §3): its own section, so the staff home menu's link carries only it. */
export const applications = {
  title: '申込一覧',
  empty: '申込はまだありません',
  newBadge: '新着',
  handled: '対応済み',
  markHandled: '対応済みへ',
  makeMember: '会員登録へ',
  male: '男性',
  female: '女性',
  age: (age: number) => `${age}歳`,
  markedHandled: '対応済みにしました',
  more: 'さらに表示',
} as const;
