/**
 * The login's second step (product.md §11.7), apart from \`ja\`: only the login screen and the server need
 * these words, so the intro pages' first load does not carry them.
 */
export const jaSecondStep = {
  /** What the server answers a second step it cannot take. */
  errors: {
    ticketExpired: 'ログインの有効期限が切れました。もう一度IDとパスワードを入力してください',
    ticketTooManyTries: '確認の試行回数が上限に達しました。もう一度IDとパスワードを入力してください',
    codeFormat: '確認コードは6桁の数字で入力してください',
    codeWrong: '確認コードが正しくないか、有効期限が切れています',
    recoveryWrong: '回復コードが正しくないか、すでに使用されています',
    passkeyFailed: 'パスキーを確認できませんでした。もう一度お試しください',
    passkeyExpired: 'パスキーの確認の有効期限が切れました。もう一度お試しください',
    passkeyUnknown: 'このパスキーは登録されていません',
    passkeyMissing: 'このアカウントにはパスキーが登録されていません',
    secondStepOneOf: '確認コード、パスキー、回復コードのいずれか1つで確認してください',
    /** 5 wrong answers within 15 minutes: the account's codes wait 15 minutes or more (product.md §11.7). */
    locked:
      '確認コードの誤りが続いたため、このアカウントの確認コードと回復コードによる確認を一時的に停止しています。しばらくしてからもう一度お試しください（パスキーは使えます）',
  },
  title: '2段階認証',
  lead: 'ログインを完了するには、もう一つの方法で本人確認をしてください。',
  passkey: 'パスキーで確認',
  code: '確認コード（6桁）',
  codeHint: '認証アプリに表示されている6桁の数字を入力してください。',
  submitCode: '確認する',
  useRecovery: '回復コードを使う',
  useCode: '確認コードを使う',
  recovery: '回復コード',
  recoveryHint: '2段階認証の設定時に保存した回復コードを1つ入力してください。各コードは1回だけ使えます。',
  submitRecovery: '回復コードで確認',
  back: 'ID・パスワードの入力に戻る',
  passkeyName: 'パスキー',
} as const;
