/** The member area's additions to pushSetup, ja.talk and news (kept here: not on the public pages). */
export const pushCheck = {
  checking: 'この端末の通知の設定を確認しています…',
  notRegistered:
    'この端末はまだ通知を受け取れる状態になっていません。下のボタンからもう一度設定してください。',
} as const;
