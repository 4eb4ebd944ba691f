import { NetworkError, TimeoutError } from '../errors/errors.js';
import { redactUrl } from '../errors/redact.js';
import { type Clock, systemClock } from './clock.js';
import { type DeadlineOptions, resolveDeadline } from './deadline.js';
import { ClientEmitter } from './events.js';
import {
  DEFAULT_RETRY,
  errorCode,
  isConnectError,
  isRetryableStatus,
  parseRetryAfter,
  type RetryOptions,
  retryDelay,
} from './retry.js';

export interface TransportOptions extends DeadlineOptions {
  userAgent: string;
  /** Per-attempt timeout in ms (connect, headers and body). @default 10000 */
  attemptTimeoutMs?: number;
  retry?: RetryOptions;
  clock?: Clock;
  events?: ClientEmitter;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Decodes a 2xx body; a throw marks the body broken (cut short), retried for GETs. */
  decode?: (text: string, contentType: string) => unknown;
  /** This call's deadline; the earlier of it and the transport's own applies. */
  deadline?: DeadlineOptions;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  decoded?: unknown;
  attempts: number;
  /** Retry-After in ms when the answer carried one. */
  retryAfterMs?: number;
}

type Outcome = { response: HttpResponse } | { error: Error; retryable: boolean };

/**
 * HTTP over Node's fetch (undici, keep-alive by default) with per-attempt timeouts, an overall
 * deadline and retries: GETs on 408/429/5xx, resets, timeouts and broken bodies; POSTs only
 * after connect errors, when the request provably never reached the server.
 *
 * @example
 * const t = new Transport({ userAgent: userAgent() });
 * const res = await t.send({ method: 'GET', url: 'http://127.0.0.1:8080/service/api/…' });
 */
export class Transport {
  readonly clock: Clock;
  readonly events: ClientEmitter;
  private readonly retry: Required<RetryOptions>;

  constructor(private readonly options: TransportOptions) {
    this.clock = options.clock ?? systemClock;
    this.events = options.events ?? new ClientEmitter();
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  /**
   * The effective deadline (epoch ms on this transport's clock, Infinity when none): the earlier
   * of the transport's own (fixed, or remaining time less the reserve) and the call's, so a call
   * can shorten its time but never outlive the invocation.
   *
   * @example
   * const deadline = transport.deadlineFor({ deadline: Date.now() + 2_000 });
   */
  deadlineFor(call?: DeadlineOptions): number {
    const now = this.clock.now();
    const own = resolveDeadline(this.options, now);
    return call ? Math.min(own, resolveDeadline(call, now)) : own;
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    const deadline = this.deadlineFor(request.deadline);
    const safeUrl = redactUrl(request.url);
    const idempotent = request.method === 'GET';
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      const remaining = deadline - this.clock.now();
      if (remaining <= 0) {
        throw new TimeoutError(
          `${request.method} ${safeUrl}: deadline passed before attempt ${attempt}`,
          'deadline',
        );
      }
      const outcome = await this.attempt(
        request,
        attempt,
        Math.min(remaining, this.options.attemptTimeoutMs ?? 10_000),
        safeUrl,
        remaining < (this.options.attemptTimeoutMs ?? 10_000),
      );
      let reason: string;
      let retryAfterMs: number | undefined;
      let status: number | undefined;
      if ('response' in outcome) {
        const { response } = outcome;
        const broken = response.status < 300 && response.decoded === BROKEN;
        if (!(idempotent && (isRetryableStatus(response.status) || broken))) return response;
        reason = broken ? 'broken body' : `HTTP ${response.status}`;
        retryAfterMs = response.retryAfterMs;
        status = response.status;
        if (attempt >= this.retry.maxAttempts) return response;
      } else {
        if (!outcome.retryable || attempt >= this.retry.maxAttempts) throw outcome.error;
        reason = outcome.error.message;
      }
      const delay = retryDelay(attempt, status, retryAfterMs, this.retry, () =>
        this.clock.random(),
      );
      const tooLate = this.clock.now() + delay >= deadline;
      if (tooLate || waited + delay > this.retry.maxTotalWaitMs) {
        if ('response' in outcome) return outcome.response;
        throw outcome.error;
      }
      this.events.emit('retry', {
        method: request.method,
        url: safeUrl,
        attempt,
        delayMs: delay,
        reason,
      });
      waited += delay;
      await this.clock.sleep(delay);
    }
  }

  private async attempt(
    request: HttpRequest,
    attempt: number,
    timeoutMs: number,
    safeUrl: string,
    limitedByDeadline: boolean,
  ): Promise<Outcome> {
    const started = this.clock.now();
    this.events.emit('request', { method: request.method, url: safeUrl, attempt });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let sent = false;
    try {
      const res = await fetch(request.url, {
        method: request.method,
        headers: { 'user-agent': this.options.userAgent, ...request.headers },
        ...(request.body === undefined ? {} : { body: request.body }),
        signal: controller.signal,
        redirect: 'error',
      });
      sent = true;
      const text = await res.text();
      const durationMs = this.clock.now() - started;
      this.events.emit('response', {
        method: request.method,
        url: safeUrl,
        status: res.status,
        attempt,
        durationMs,
      });
      let decoded: unknown;
      if (res.status < 300 && request.decode) {
        try {
          decoded = request.decode(text, res.headers.get('content-type') ?? '');
        } catch {
          decoded = BROKEN;
        }
      }
      const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), this.clock.now());
      return {
        response: {
          status: res.status,
          headers: res.headers,
          text,
          decoded,
          attempts: attempt,
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        },
      };
    } catch (error) {
      this.events.emit('requestFailed', {
        method: request.method,
        url: safeUrl,
        attempt,
        durationMs: this.clock.now() - started,
        reason: controller.signal.aborted ? 'timeout' : (errorCode(error) ?? 'network error'),
      });
      if (controller.signal.aborted) {
        const kind = limitedByDeadline ? 'deadline' : 'attempt';
        const err = new TimeoutError(
          `${request.method} ${safeUrl}: no complete answer within ${timeoutMs} ms (attempt ${attempt})`,
          kind,
          { cause: error },
        );
        // A timed-out POST may have reached the server: never send it again.
        return { error: err, retryable: kind === 'attempt' && request.method === 'GET' };
      }
      const connect = !sent && isConnectError(error);
      const code = errorCode(error) ?? (error instanceof Error ? error.message : 'unknown');
      const err = new NetworkError(
        `${request.method} ${safeUrl}: ${connect ? 'could not connect' : 'connection failed'} (${code})`,
        connect,
        { cause: error },
      );
      return { error: err, retryable: connect || request.method === 'GET' };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Marker for a 2xx body that failed to decode. */
export const BROKEN: unique symbol = Symbol('broken body');
