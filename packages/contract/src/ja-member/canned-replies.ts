/**
 * The 定型文 screen and the server's answers about saved replies (product.md §2.6): apart from `desk`, so that a
 * talk, which offers the replies, does not load the words of the screen that edits them.
 */
export const cannedReplies = {
  replyList: '定型文の一覧',
  repliesLead: 'よく使う返信を登録しておくと、トークのコメント欄からすぐに呼び出せます。',
  replyAdd: '定型文を追加',
  replyEdit: '定型文を編集',
  replyName: 'ショートカット名',
  replyNameHint: 'コメント欄で「/」に続けて入力すると呼び出せます（英数字・かな・漢字、20文字まで）',
  replyBody: '本文',
  replyBodyHint: '{name} は相手の名前、{staff} は自分の名前に置き換わります',
  replySave: '保存する',
  replySaved: '定型文を保存しました',
  replyDeleted: '定型文を削除しました',
  replyDeleteConfirm: 'この定型文を削除しますか？',
  replyNone: '定型文はまだありません',
  replyNameTaken: 'このショートカット名はすでに使われています',
  replyNameBad: 'ショートカット名は空白や「/」を含めず20文字までで入力してください',
  replyTooMany: '定型文は200件までです',
} as const;
