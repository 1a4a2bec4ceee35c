/**
 * Fresh proof before a sensitive change, and the notices that tell a person about their account's security
 * (product.md §11.8).
 */
export const reauth = {
  errors: {
    /** A sensitive change without fresh proof: 403 with `reauth: true` (the web then opens the dialog). */
    required: 'この操作には本人確認が必要です。もう一度パスワードを入力してください',
    passwordWrong: 'パスワードが正しくありません',
    passwordMissing: 'パスワードを入力してください',
    /** An account with a second factor proves itself with it as well. */
    secondStepMissing: '確認コード、パスキー、回復コードのいずれかでも確認してください',
    /** Only an owner who uses a second factor may switch the staff requirement. */
    ownerFactorFirst: 'この設定を変更するには、先にご自身の2段階認証を設定してください',
  },
  title: '本人確認',
  lead: '大切な設定を変更するため、もう一度本人確認をしてください。',
  password: 'パスワード',
  next: '次へ',
  secondLead: 'もう一つの方法でも確認してください。',
  code: '確認コード（6桁）',
  recovery: '回復コード',
  passkey: 'パスキーで確認',
  submit: '確認して続ける',
  cancel: 'キャンセル',
  noticesTitle: 'アカウントのお知らせ',
  noticeDismiss: '確認しました',
  /** What each notice says (product.md §11.8): something changed, or the second step was locked. */
  notices: {
    second_step_locked:
      '2段階認証の確認コードが続けて間違って入力されたため、確認コードによるログインを一時的に停止しました。お心当たりがない場合は、パスワードを変更してください。',
    totp_added: '認証アプリが設定されました。',
    totp_removed: '認証アプリの設定が削除されました。',
    passkey_added: 'パスキーが登録されました。',
    passkey_removed: 'パスキーが削除されました。',
    recovery_regenerated: '回復コードが作り直されました。',
    password_changed: 'パスワードが変更されました。',
    sessions_ended: 'ほかの端末のログインがすべて終了されました。',
    staff_requirement: 'スタッフの2段階認証の設定が変更されました。',
  },
  noticeUnknown: 'お心当たりがない場合は、すぐにクラブへご連絡ください。',
  /** The push to the person's other devices. */
  pushTitle: 'アカウントのセキュリティ',
} as const;
