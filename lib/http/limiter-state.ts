import * as z from '../zod.js';

/**
 * What an AdaptiveLimiter learned, small enough to carry in a Lambda's payload or a state
 * object so that a run resumed in a fresh invocation starts where the last one left off.
 */
export interface LimiterState {
  /** The limit, fraction included (the additive increase works in fractions of a slot). */
  limit: number;
  /** The latency baseline in ms, null when none was learned yet. */
  baselineMs: number | null;
}

/** Unknown keys are accepted: a newer writer may add some, an older reader still gets its two. */
export const LimiterStateSchema = z.object({
  limit: z.number().check(z.positive()),
  baselineMs: z.nullable(z.number().check(z.nonnegative())),
});

/**
 * Reads a saved state, or answers undefined for anything that is not one: state that cannot
 * be trusted is worth less than the configured start, never worth failing a run over.
 *
 * @example
 * const state = readLimiterState(JSON.parse(saved)); // undefined for `null`, `{}`, `"x"`
 */
export function readLimiterState(value: unknown): LimiterState | undefined {
  const result = z.safeParse(LimiterStateSchema, value);
  return result.success ? result.data : undefined;
}
