export const pushSetup = {
  title: '通知',
  lead: 'アプリを閉じていても、スタッフや会員からのメッセージ、最新情報をスマートフォンにお知らせします。',
  privacy: '通知には送り主のお名前だけを表示し、メッセージの内容は表示しません（下の設定で変更できます）。',
  enable: '通知を受け取る',
  enabling: '設定中…',
  enabled: '通知はオンです',
  enabledLead: 'この端末でメッセージのお知らせを受け取ります。',
  failed: '通知を設定できませんでした。しばらくしてからお試しください。',
  /** The prompt was closed without an answer: nothing changed. */
  dismissed:
    '通知はまだオンになっていません。もう一度「通知を受け取る」をタップし、表示される確認で「許可」を選んでください。',
  /** The browser's push service refused the subscription (no push service, private mode, a blocked site). */
  subscribeFailed:
    'この端末で通知を登録できませんでした。ブラウザを最新版にし、プライベートブラウズでないことを確かめてから、もう一度お試しください。',
  /** The app's service worker is not running (the app was not fully loaded). */
  noWorker: '通知の準備ができていません。アプリを一度閉じて開き直してから、もう一度お試しください。',
  offline: 'オフラインのため通知を設定できません。接続が戻ってからもう一度お試しください。',
  unsupported: 'このブラウザは通知に対応していません。ChromeやSafariの最新版で開くと通知を受け取れます。',
  deniedTitle: '通知がブロックされています',
  deniedLead: '端末の設定で、縁の通知を許可してください。',
  deniedSteps: [
    'iPhone：「設定」→「通知」→「縁」→「通知を許可」をオン',
    'Android：「設定」→「アプリ」→「Chrome」（または「縁」）→「通知」をオン',
    'パソコン：アドレスバーの鍵アイコン →「通知」→「許可」',
  ],
  installTitle: 'iPhoneで通知を受け取るには',
  installLead: '通知はホーム画面に追加した「縁」アプリで受け取れます（iOS 16.4以降）。',
  installSteps: [
    'Safariの画面下にある共有ボタンをタップします。',
    'メニューから「ホーム画面に追加」を選び、「追加」をタップします。',
    'ホーム画面の「縁」アイコンから開き、マイページで「通知を受け取る」をタップします。',
  ],
  addToHome: 'ホーム画面に追加',
  settingsTitle: '通知の設定',
  settingsLead: '受け取るお知らせを選べます。',
  kinds: {
    staff: 'スタッフとのトーク',
    st: 'グループトーク',
    news: 'お知らせ',
    broadcast: '一括送信',
    men: '男性会員のトーク',
    women: '女性会員のトーク',
  },
  callsAlways: '通話の着信は常にお知らせします。',
  showText: '通知にメッセージ本文を表示する',
  showTextNote: 'オンにすると、ロック画面にもメッセージの内容が表示されます。',
} as const;
