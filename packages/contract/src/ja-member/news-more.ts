export const newsMore = {
  emptyNext: 'クラブからのお知らせが届くと、ここに表示されます。',
  offlineCopy: 'オフラインのため、前回読み込んだ最新情報を表示しています。',
} as const;
