/** Reports (レポート, product.md §2.9): the admin's and the owner's figures of the desk and the settings. */
export const reports = {
  title: 'レポート',
  month: '対象月',
  intro: '日付と時刻は日本時間です。初回返信は、会員のメッセージからスタッフの最初の返信までの時間です。',
  loading: 'レポートを読み込んでいます',
  failed: 'レポートを読み込めませんでした',
  csv: 'CSVダウンロード',
  chartLabel: (title: string) => `${title}のグラフ(同じ内容を下の表に示しています)`,
  none: '—',
  minutes: (minutes: number) => `${minutes.toFixed(1)}分`,
  replies: {
    title: '初回返信までの時間(日別)',
    file: 'first-replies-by-day',
    header: ['日付', '返信数', '中央値(分)', '90パーセンタイル(分)'],
    median: '中央値',
    p90: '90パーセンタイル',
  },
  staff: {
    title: '初回返信までの時間(スタッフ別)',
    file: 'first-replies-by-staff',
    header: ['スタッフ', '返信数', '中央値(分)', '90パーセンタイル(分)'],
    total: '全体',
    empty: 'この月の初回返信はありません',
  },
  messages: {
    title: '1日のメッセージ数',
    file: 'messages-by-day',
    header: ['日付', '会員から', 'スタッフから', '合計'],
    members: '会員から',
    staff: 'スタッフから',
  },
  open: {
    title: '日末に未返信のトーク',
    file: 'open-talks-by-day',
    header: ['日付', '未返信のトーク'],
    series: '未返信のトーク',
  },
  settings: {
    title: 'セッティング(月別)',
    file: 'settings-by-month',
    header: ['月', '依頼', '確定', 'お断り', '取消'],
  },
  fileName: (file: string, month: string) => `${file}-${month}.csv`,
  errors: {
    badMonth: 'レポートの月は2026-11のように入力してください',
  },
} as const;
