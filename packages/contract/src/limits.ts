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
  /** *(here)* Each retry is up to this much sooner or later, at random (socketReconnectDelay). */
  socketReconnectJitterMs: 1000,
  notificationPollMs: 3000,
  longPressMs: 500,
  swUpdateCheckMs: 1000,
} as const;

/**
 * How long a dropped chat socket waits before it tries again (product.md §4.3, §9.1): 4.5 s on average,
 * spread at random over 3.5 to 5.5 s, so that the sockets of an instance that died do not all arrive at
 * the one left in the same instant (issue 25).
 */
export const socketReconnectDelay = (random: () => number = Math.random): number =>
  LIMITS.socketReconnectMs + (2 * random() - 1) * LIMITS.socketReconnectJitterMs;
