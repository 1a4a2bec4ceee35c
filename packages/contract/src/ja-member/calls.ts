export const calls = {
  title: '音声通話',
  contactTitle: '緊急連絡',
  contactNotice:
    '緊急時のみご利用ください。お呼び出ししたスタッフが応答できない場合は、ほかのスタッフから折り返しご連絡いたします。',
  callNotice: 'スタッフの接続状況です。男性会員とのトークの電話ボタンから緊急音声通話をかけられます。',
  staffList: 'スタッフ一覧',
  noStaff: 'スタッフが登録されていません',
  online: 'オンライン',
  offline: 'オフライン',
  callButton: '電話をかける',
  callTo: (name: string) => `${name}さんに電話をかける`,
  startPrompt: '緊急音声通話を開始しますか？',
  start: '開始',
  cancel: 'キャンセル',
  calling: '呼び出し中…',
  ringingByPush: '相手のアプリが閉じているため、通知でお呼び出ししています',
  escalated: '応答がないため、ほかのスタッフもお呼び出ししています',
  connecting: '接続中…',
  inCall: '通話中',
  incoming: '緊急通話の着信があります',
  incomingFrom: (name: string) => `${name}さんからの着信`,
  accept: '応答',
  decline: '拒否',
  mute: 'ミュート',
  unmute: 'ミュート解除',
  speaker: 'スピーカー',
  hangUp: '通話を終了',
  callBack: '折り返し電話する',
  /** The call view shrunk to a bar on top of every screen (product.md §17). */
  minimize: '小さくする',
  expand: '通話画面を開く',
  bar: (name: string) => `${name}さんと通話中`,
  micDenied: 'マイクを使用できません。端末の設定でマイクを許可してください',
  unsupported: 'このブラウザは音声通話に対応していません',
  notAllowed: 'この相手とは通話できません',
  notInCall: 'この通話には参加していません',
  callingTooFast: '発信が続いています。少し待ってからおかけください',
  alreadyInCall: 'ただいま通話中です',
  /** What the caller (or the other side) is told when a call ends (CallEndReason). */
  reasons: {
    declined: '相手が通話を拒否しました',
    cancelled: '相手が発信を取り消しました',
    busy: '相手は通話中です',
    offline: '相手は現在オフラインです',
    timeout: '応答がありませんでした',
    answered: 'ほかの端末またはスタッフが応答しました',
    ended: '通話が終了しました',
    dropped: '通話が切断されました',
  },
  /** The call record in the member's staff talk (message_type 1). */
  missed: '不在着信',
  /** 通話 3分12秒 (under a minute: 通話 45秒). */
  duration: (seconds: number) => {
    const whole = Math.max(0, Math.floor(seconds));
    const minutes = Math.floor(whole / 60);
    const rest = whole % 60;
    return minutes > 0 ? `通話 ${minutes}分${rest}秒` : `通話 ${rest}秒`;
  },
  pushTitle: '緊急通話の着信があります',
  pushBody: (name: string) => `${name}さんから着信中です。タップして応答してください`,
} as const;
