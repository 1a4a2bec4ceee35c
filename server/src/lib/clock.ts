/** Milliseconds since the epoch. Services take a clock so tests can move time instead of waiting. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
