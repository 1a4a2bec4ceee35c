export const memberSite = {
  tabs: '会員ページ',
  loginTitle: '会員サイトにログイン',
  lead: '会員サイトのIDとパスワードを入力してください。パスワードはこのアプリには保存されず、会員サイトへ直接送られます。',
  loginId: '会員サイトのID',
  password: '会員サイトのパスワード',
  submit: 'ログイン',
  loginAgain: '会員サイトにログインし直す',
} as const;
