/** The app opened at another address than PUBLIC_ORIGIN: the chat socket is refused there (product.md §2.4). */
export const wrongAddress = {
  notice: (origin: string) =>
    `このアドレスではチャットにつながらず、メッセージを送れません。${origin} から開き直してください。`,
  open: '正しいアドレスで開く',
} as const;
