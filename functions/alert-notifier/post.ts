import { SkywatchError } from '../../lib/errors/index.js';
import { DEFAULT_RETRY, parseRetryAfter, retryDelay, systemClock } from '../../lib/http/index.js';
import { CONTRACTS } from './contracts.js';
import type { Delivery } from './destinations.js';

/** The destination refused the request (its contract says no retry mends it). */
export class DeliveryRejectedError extends SkywatchError {
  constructor(
    readonly destination: string,
    readonly status: number,
    detail: string,
  ) {
    super(`${destination} rejected the alert with HTTP ${status}: ${detail}`);
    this.name = 'DeliveryRejectedError';
  }
}

/**
 * Every attempt failed (5xx, 429, 3xx, timeout, network): a later retry may succeed, not
 * before `retryAfterMs` when the receiver's last answer asked for a wait (Retry-After).
 */
export class DeliveryFailedError extends SkywatchError {
  constructor(
    readonly destination: string,
    readonly attempts: number,
    reason: string,
    readonly retryAfterMs?: number,
    /** The last answer's HTTP status; none after a timeout or a failed connection. */
    readonly status?: number,
  ) {
    super(`${destination}: ${reason} after ${attempts} attempt(s)`);
    this.name = 'DeliveryFailedError';
  }
}

export interface PostOptions {
  maxAttempts: number;
  attemptTimeoutMs: number;
  /** First back-off ceiling; each retry doubles it, with full jitter, up to maxDelayMs. */
  baseDelayMs: number;
  /** The longest wait between two attempts in one invocation. */
  maxDelayMs: number;
  /** Milliseconds the invocation has left: no attempt starts that could outlive it. */
  remainingMs?: () => number;
  onRetry?: (info: { destination: string; attempt: number; reason: string }) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** Time kept back at the invocation's end, to record the outcome and answer the batch. */
const RESERVE_MS = 2_000;

/**
 * POSTs one delivery, judging each answer by the receiver's contract (./contracts.ts) and
 * waiting between attempts as the project's retry policy does (lib/http: full jitter, a longer
 * first wait after a 429, Retry-After). A Retry-After longer than this invocation may wait is
 * honoured in full: the delivery fails now and the queue brings it back later, rather than
 * posting early to a receiver that may disable a sender which ignores it. Answers the status.
 */
export async function post(delivery: Delivery, options: PostOptions): Promise<number> {
  // The project's clock: the fault suites run its waits on virtual time.
  const sleep = options.sleep ?? ((ms: number) => systemClock.sleep(ms));
  const random = options.random ?? (() => systemClock.random());
  const remaining = options.remainingMs ?? (() => Number.POSITIVE_INFINITY);
  const policy = {
    ...DEFAULT_RETRY,
    baseDelayMs: options.baseDelayMs,
    maxDelayMs: options.maxDelayMs,
    rateLimitBaseDelayMs: options.baseDelayMs,
  };
  let reason = 'no time left in the invocation';
  let attempt = 0;
  let retryAfterMs: number | undefined;
  let lastStatus: number | undefined;
  while (attempt < options.maxAttempts) {
    const timeoutMs = Math.min(options.attemptTimeoutMs, remaining() - RESERVE_MS);
    if (timeoutMs <= 0) break;
    attempt++;
    let status: number | undefined;
    retryAfterMs = undefined;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
        // A redirect is a failure by every contract here; following it would post elsewhere.
        redirect: 'manual',
        signal,
      });
      const text = await response.text().catch(() => '');
      const answer = CONTRACTS[delivery.type](response.status);
      if (answer === 'delivered') return response.status;
      if (answer === 'refused')
        throw new DeliveryRejectedError(delivery.destination, response.status, text.slice(0, 200));
      status = response.status;
      reason = `HTTP ${status}`;
      retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), systemClock.now());
    } catch (error) {
      if (error instanceof DeliveryRejectedError) throw error;
      // Never the URL: for Slack, Teams and webhooks the URL is the secret.
      reason = signal.aborted ? 'timed out' : 'connection failed';
    }
    lastStatus = status;
    if (attempt === options.maxAttempts) break;
    const wait = retryDelay(attempt, status, retryAfterMs, policy, random);
    if (wait > options.maxDelayMs) {
      reason += ` (Retry-After ${Math.ceil(wait / 1000)} s: later, from the queue)`;
      break;
    }
    options.onRetry?.({ destination: delivery.destination, attempt, reason });
    await sleep(wait);
  }
  throw new DeliveryFailedError(delivery.destination, attempt, reason, retryAfterMs, lastStatus);
}
