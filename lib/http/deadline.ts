/** When a call must be over: a fixed instant and/or a Lambda's remaining time. */
export interface DeadlineOptions {
  /** Absolute deadline (Date or epoch ms). */
  deadline?: Date | number;
  /** Remaining time in ms, read at each call: pass `context.getRemainingTimeInMillis`. */
  remainingTimeMs?: () => number;
  /** Kept back from remainingTimeMs so the function can still report a failure. @default 500 */
  reserveMs?: number;
}

/**
 * Resolves the effective deadline (epoch ms) of a call, or Infinity when none applies.
 *
 * @example
 * resolveDeadline({ remainingTimeMs: () => 3000 }, Date.now()); // now + 2500
 */
export function resolveDeadline(options: DeadlineOptions, nowMs: number): number {
  let deadline = Number.POSITIVE_INFINITY;
  if (options.deadline !== undefined) {
    deadline = options.deadline instanceof Date ? options.deadline.getTime() : options.deadline;
  }
  if (options.remainingTimeMs) {
    const remaining = options.remainingTimeMs() - (options.reserveMs ?? 500);
    deadline = Math.min(deadline, nowMs + remaining);
  }
  return deadline;
}
