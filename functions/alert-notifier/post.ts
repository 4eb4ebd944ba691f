import { SkywatchError } from '../../lib/errors/index.js';
import type { Delivery } from './destinations.js';

/** The destination refused the request (4xx other than 408/429): sending it again won't help. */
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

/** Every attempt failed (5xx, 429, 408, timeout, network): a later retry may succeed. */
export class DeliveryFailedError extends SkywatchError {
  constructor(
    readonly destination: string,
    readonly attempts: number,
    reason: string,
  ) {
    super(`${destination}: ${reason} after ${attempts} attempt(s)`);
    this.name = 'DeliveryFailedError';
  }
}

export interface PostOptions {
  maxAttempts: number;
  attemptTimeoutMs: number;
  /** First back-off; each retry doubles it, with full jitter, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  onRetry?: (info: { destination: string; attempt: number; reason: string }) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const retriable = (status: number) => status === 408 || status === 429 || status >= 500;

/** Retry-After in seconds or as an HTTP date, as milliseconds from now. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * POSTs one delivery, retrying what can succeed later with exponential back-off (Retry-After
 * honoured up to maxDelayMs) and failing at once on a refusal. Answers the final status.
 */
export async function post(delivery: Delivery, options: PostOptions): Promise<number> {
  const sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;
  let reason = '';
  for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
    let wait: number | undefined;
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
        signal: AbortSignal.timeout(options.attemptTimeoutMs),
      });
      const text = await response.text().catch(() => '');
      if (response.ok) return response.status;
      if (!retriable(response.status))
        throw new DeliveryRejectedError(delivery.destination, response.status, text.slice(0, 200));
      reason = `HTTP ${response.status}`;
      wait = retryAfterMs(response.headers.get('retry-after'));
    } catch (error) {
      if (error instanceof DeliveryRejectedError) throw error;
      // Never the URL: for Slack, Teams and webhooks the URL is the secret.
      reason = (error as Error).name === 'TimeoutError' ? 'timed out' : 'connection failed';
    }
    if (attempt === options.maxAttempts) break;
    options.onRetry?.({ destination: delivery.destination, attempt, reason });
    const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
    await sleep(Math.min(options.maxDelayMs, wait ?? Math.floor(random() * backoff)));
  }
  throw new DeliveryFailedError(delivery.destination, options.maxAttempts, reason);
}
