/** Milliseconds since the epoch; injected so tests can move time (rate-limit windows, timestamps). */
export type Clock = () => number
export const systemClock: Clock = () => Date.now()
