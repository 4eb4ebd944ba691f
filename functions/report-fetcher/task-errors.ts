import { StorageError } from '../../lib/aws/index.js';
import {
  DEFAULT_RETRY,
  isRetryableStatus,
  type RetryOptions,
  retryDelay,
} from '../../lib/http/index.js';
import { HttpError, NetworkError, RateLimitError, TimeoutError } from '../../lib/index.js';

/**
 * Whether a task that failed this way may succeed later in the same job: an answer the
 * project's retry policy retries (lib/http/retry.ts: 408, 429, 500, 502, 503, 504), S3 having
 * a bad minute, a timeout, a broken connection. Those go back to the job's queue and the day
 * finishes later; anything else (a refused request, a 501, an answer that breaks its schema)
 * fails the task at once, with its reason in the manifest.
 */
export function transient(error: unknown): boolean {
  if (error instanceof HttpError) return isRetryableStatus(error.status);
  return (
    error instanceof TimeoutError || error instanceof NetworkError || error instanceof StorageError
  );
}

/** Back-off between a task's attempts: the retry policy's shape, over a job's longer waits. */
export interface TaskRetryOptions {
  /** First back-off ceiling in ms; doubles per failed attempt. @default 250 */
  baseMs?: number;
  /** Largest back-off ceiling in ms. @default 30000 */
  maxMs?: number;
  random?: () => number;
}

/**
 * The wait before a task that has failed transiently `attempts` times runs again: the
 * service's Retry-After when it gave one, else full jitter (lib/http/retry.ts `retryDelay`),
 * with the larger first ceiling after a 429. The client has already retried the call itself,
 * so these ceilings are the job's, wider than one call's.
 *
 * @example
 * taskRetryDelay(2, new TimeoutError('slow', 'attempt')); // 0..500 ms
 */
export function taskRetryDelay(
  attempts: number,
  error: unknown,
  options: TaskRetryOptions = {},
): number {
  const policy: Required<RetryOptions> = {
    ...DEFAULT_RETRY,
    baseDelayMs: options.baseMs ?? 250,
    maxDelayMs: options.maxMs ?? 30_000,
  };
  const status = error instanceof HttpError ? error.status : undefined;
  const retryAfterMs = error instanceof RateLimitError ? error.retryAfter : undefined;
  return retryDelay(attempts, status, retryAfterMs, policy, options.random ?? Math.random);
}
