import { TimeoutError } from '../errors/errors.js';

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

/**
 * Waits for `work` at most `maxWaitMs` (real time), then raises TimeoutError('deadline'). The
 * work itself goes on: it may be shared (one token request for many callers), and cutting a
 * token request that reached the server could lose a rotated refresh token.
 *
 * @example
 * const token = await waitWithin(inflight, 800, 'a token');
 */
export async function waitWithin<T>(
  work: Promise<T>,
  maxWaitMs: number | undefined,
  what: string,
): Promise<T> {
  if (maxWaitMs === undefined || !Number.isFinite(maxWaitMs)) return work;
  if (maxWaitMs <= 0) {
    work.catch(() => {});
    throw new TimeoutError(`deadline passed while waiting for ${what}`, 'deadline');
  }
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new TimeoutError(`no ${what} within the call's deadline (${maxWaitMs} ms)`, 'deadline'),
        ),
      maxWaitMs,
    );
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
