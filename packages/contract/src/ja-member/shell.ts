/** The staff desktop shell from 1024 px (product.md §2.8): the side navigation. */
export const shell = {
  nav: '管理メニュー',
  home: 'ホーム',
  talks: 'トーク',
  men: '男性会員',
  women: '女性会員',
  settings: 'セッティング',
  applications: '申込',
  news: '最新情報',
  banners: '広告',
  stamps: 'スタンプ',
  send: '一括送信',
  replies: '定型文',
  staff: 'スタッフ',
  audit: '監査ログ',
  count: (count: number) => `（${count}件）`,
  signedIn: 'ログイン中',
} as const;
