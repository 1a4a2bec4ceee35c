/**
 * The intro pages' wording (/intro/male, /intro/female: the guide and the application form, product.md §2.7).
 * Apart from `ja` so that a member's first load does not carry it.
 */
export const jaIntro = {
  maleTitle: '男性会員のご案内',
  femaleTitle: '女性会員のご案内',
  welcome: '縁は、スタッフがお一人おひとりに寄り添い、素敵な出会いをお手伝いする会員制のクラブです。',
  maleBody:
    'ご入会いただくと、専任スタッフとのトーク、セッティング（お食事のご紹介）のご相談、最新情報のお知らせをこのアプリでご利用いただけます。',
  femaleBody:
    'ご登録いただくと、スタッフとのトーク、セッティング（お食事のご紹介）のご案内、最新情報のお知らせをこのアプリでご利用いただけます。',
  femaleAge: '女性会員は20歳以上の方に限ります。',
  rulesTitle: 'ご利用にあたってのお願い',
  rules: [
    'ID・パスワードは他の方に教えたり、他のサービスで使い回したりしないでください。',
    'サービス内で知り得た会員の情報や会話の内容は、外部に漏らしたり他の目的に使ったりしないでください。',
  ],
  installTitle: 'ホーム画面に追加して使う',
  installLead: 'アプリのようにすぐ開けて、メッセージの通知も受け取れます。',
  iphoneTitle: 'iPhone（Safari）',
  iphoneSteps: [
    'Safariでこのページを開きます。',
    '画面下の共有ボタン（四角から矢印が出たアイコン）をタップします。',
    '「ホーム画面に追加」を選び、右上の「追加」をタップします。',
    'ホーム画面の「縁」アイコンから開いてください。',
  ],
  androidTitle: 'Android（Chrome）',
  androidSteps: [
    'Chromeでこのページを開きます。',
    '右上のメニュー（︙）をタップします。',
    '「ホーム画面に追加」または「アプリをインストール」を選びます。',
    'ホーム画面の「縁」アイコンから開いてください。',
  ],
  formTitle: '入会のお申し込み',
  formLead: '以下をご入力のうえ送信してください。担当スタッフよりご連絡いたします。',
  name: 'お名前',
  age: '年齢',
  email: 'メールアドレス',
  tel: '電話番号',
  required: '必須',
  submit: '送信する',
  sending: '送信中…',
  sent: '送信しました',
  sentBody: 'お申し込みありがとうございます。担当スタッフより追ってご連絡いたします。',
  failed: '送信失敗しました',
  nameRequired: '名前を入力してください',
  ageRequired: '年齢を入力してください',
  emailRequired: 'メールアドレスを入力してください',
  telRequired: '電話番号を入力してください',
  ageInvalid: '年齢は数字で入力してください',
  ageUnder20: '女性会員は20歳以上の方に限ります',
  ageUnder18: 'お申し込みは18歳以上の方に限ります',
  nameTooLong: (max: number) => `お名前は${max}文字以内で入力してください`,
  emailInvalid: 'メールアドレスの形式をご確認ください（例：hanako@example.jp）',
  telInvalid: '電話番号は数字とハイフンで入力してください（例：090-1234-5678）',
  telTooLong: (max: number) => `電話番号は${max}文字以内で入力してください`,
  toLogin: '会員の方はこちらからログイン',
} as const;
