/** product.md §9 limits. */
export const LIMITS = {
  loginIdMax: 24,
  passwordMin: 8,
  passwordMax: 24,
  introducerMax: 24,
  nameMax: 50,
  emailMax: 254,
  telMax: 20,
  imageBytes: 5_000_000,
  toastMs: 4500,
  socketReconnectMs: 4500,
  notificationPollMs: 3000,
  longPressMs: 500,
  swUpdateCheckMs: 1000,
} as const;
