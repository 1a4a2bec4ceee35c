/** A picture a member picked that cannot be used (talks, mypage, own profile): what was wrong and what to pick. */
export const images = {
  wrongType: (types: string) =>
    `${types}以外の画像は使えないため、除きました。${types}の画像を選んでください。`,
  tooLarge: (megabytes: number) =>
    `${megabytes}MBを超える画像は使えないため、除きました。${megabytes}MBまでの画像を選ぶか、小さく撮り直してください。`,
  unreadable: '画像を読み込めなかったため、除きました。別の画像を選んでください。',
} as const;
