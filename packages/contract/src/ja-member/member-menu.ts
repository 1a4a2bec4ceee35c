export const memberMenu = {
  label: '会員メニュー',
  deposit: '入金確認',
  settings: 'セッティング履歴',
  points: 'ポイント履歴・領収書',
  payment: 'お支払い情報',
  purchase: 'ポイント購入',
  contact: '緊急連絡',
  newTab: '新しいタブで開きます',
  unavailable: '準備中',
  imageUploaded: 'プロフィール画像を変更しました',
  imageUploading: '画像を送信中…',
} as const;
