/**
 * The desk's message search (product.md §2.6): apart from `desk`, so that it loads with the search, not with
 * every talk.
 */
export const messageSearch = {
  searchLabel: '検索する言葉',
  searchPlaceholder: 'メッセージを検索',
  searchAll: 'すべてのトーク',
  searchThis: 'このトーク',
  searchButton: '検索',
  searchEmpty: '見つかりませんでした',
  searchHint: '1文字から検索できます',
  searchMore: 'さらに表示',
  searchResults: (count: number, more: boolean) => `${count}件${more ? '以上' : ''}`,
  queryEmpty: '検索する言葉を入力してください',
} as const;
