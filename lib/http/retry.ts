/** Retry policy. Defaults suit a Lambda: a few quick attempts, never past its deadline. */
export interface RetryOptions {
  /** Attempts in all, the first included. @default 4 */
  maxAttempts?: number;
  /** First backoff ceiling in ms; doubles per retry. @default 200 */
  baseDelayMs?: number;
  /** Largest backoff ceiling in ms. @default 5000 */
  maxDelayMs?: number;
  /** Most time spent waiting between attempts in one call, in ms. @default 20000 */
  maxTotalWaitMs?: number;
  /**
   * First backoff ceiling in ms after a 429 without Retry-After (the real service sends none):
   * a throttled service is given more room than a dropped connection. @default 1000
   */
  rateLimitBaseDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  maxAttempts: 4,
  baseDelayMs: 200,
  maxDelayMs: 5000,
  maxTotalWaitMs: 20_000,
  rateLimitBaseDelayMs: 1000,
};

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

/** Statuses worth another try of an idempotent request. */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUS.has(status);
}

/**
 * Errors raised before a connection existed, so no byte of the request reached the server:
 * the only failures after which a POST may be sent again.
 */
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Finds the system error code in fetch's `TypeError: fetch failed` chain. */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let i = 0; i < 5 && current; i++) {
    const c = current as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof c.code === 'string') return c.code;
    if (Array.isArray(c.errors) && c.errors.length > 0) {
      const inner = errorCode(c.errors[0]);
      if (inner) return inner;
    }
    current = c.cause;
  }
  return undefined;
}

/** True when the failure happened while connecting (see CONNECT_CODES). */
export function isConnectError(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && CONNECT_CODES.has(code);
}

/**
 * Exponential backoff with full jitter: a uniform wait between 0 and min(max, base·2^(n−1)).
 *
 * @example
 * backoffDelay(3, DEFAULT_RETRY, Math.random); // 0..800 ms
 */
export function backoffDelay(
  retry: number,
  options: Required<RetryOptions>,
  random: () => number,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * The wait before retry number `retry`: the service's Retry-After when it gave one; else full
 * jitter, from a larger first ceiling after a 429 so that a throttled service is not hammered.
 *
 * @example
 * retryDelay(1, 429, undefined, DEFAULT_RETRY, Math.random); // 0..1000 ms
 */
export function retryDelay(
  retry: number,
  status: number | undefined,
  retryAfterMs: number | undefined,
  options: Required<RetryOptions>,
  random: () => number,
): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  if (status !== 429) return backoffDelay(retry, options, random);
  const baseDelayMs = Math.max(options.baseDelayMs, options.rateLimitBaseDelayMs);
  return backoffDelay(retry, { ...options, baseDelayMs }, random);
}

/**
 * Reads Retry-After (delay seconds or an HTTP date) as milliseconds from now.
 *
 * @example
 * parseRetryAfter('2', Date.now()); // 2000
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
