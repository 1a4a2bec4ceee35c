export const mypage = {
  staffTitle: 'スタッフマイページ',
  memberTitle: 'マイページ',
  rank: 'ランク',
  course: 'コースのご案内',
  imageUpload: '画像を変更',
} as const;
