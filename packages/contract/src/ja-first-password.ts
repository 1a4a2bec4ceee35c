/**
 * The first login of an imported member (product.md §11.4): the form where their own password replaces the
 * first one. Apart from the login's catalogue, so that only that form (its own chunk) carries these texts.
 */
export const jaFirstPassword = {
  newPassword: '新しいパスワード',
  newPasswordAgain: '新しいパスワード（確認）',
  newPasswordHint: '半角英数字と . ? / - 、8〜24文字',
  newPasswordMismatch: '確認のパスワードが一致しません',
  setPassword: 'パスワードを設定してログイン',
  /** The server's answers to a new password it refuses. */
  newPasswordInvalid: '新しいパスワードは半角英数字と . ? / - で、8〜24文字で入力してください',
  newPasswordSame: '新しいパスワードは初回パスワードと別のものにしてください',
} as const;
