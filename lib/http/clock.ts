/** Time and chance, injectable so tests can drive retries and expiry without waiting. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Uniform in [0, 1): the jitter source. */
  random(): number;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
  random: () => Math.random(),
};
