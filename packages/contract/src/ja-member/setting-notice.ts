/**
 * What staff hear live of setting requests, on whatever screen is open (product.md §2.8): apart from `setting`,
 * so that every staff screen loads this line and not the setting screens' words.
 */
export const settingNotice = {
  /** The toast staff see when a man asks. */
  newRequest: (man: string, woman: string) => `新しいセッティング依頼：${man}さん → ${woman}さん`,
} as const;
