import pLimit, { type LimitFunction } from 'p-limit';
import { ValidationError } from '../errors/errors.js';
import type { ClientEmitter } from './events.js';
import { LatencyTrend } from './latency-trend.js';
import { type LimiterState, readLimiterState } from './limiter-state.js';

/** Why the limit moved: a 429/503, slow answers, a timed-out attempt, or growth. */
export type LimitChangeReason = 'throttle' | 'latency' | 'timeout' | 'increase';

export interface AdaptiveLimiterOptions {
  /** Limit of a limiter with no (valid) saved state. An integer from `min` to `max`. */
  readonly initial: number;
  /** The limit never drops below this (at least 1). */
  readonly min: number;
  /** The limit never grows past this. */
  readonly max: number;
  /** Epoch ms; the same time base as the client's attempt durations. @default Date.now */
  readonly now?: () => number;
  /** Recent latency this many times the baseline counts as load. @default 2 */
  readonly latencyFactor?: number;
  /** Least time between two decreases, on top of the window rule. @default 0 */
  readonly cooldownMs?: number;
  /** A `save()` of an earlier limiter; anything invalid is ignored in favour of `initial`. */
  readonly state?: unknown;
  /** Called after the limit's whole number of slots changed, e.g. to log it or count a metric. */
  readonly onChange?: (limit: number, reason: LimitChangeReason) => void;
}

/** Counters for logs and metrics. */
export interface LimiterStats {
  /** Slots now: the whole part of the limit. */
  limit: number;
  peakLimit: number;
  lowestLimit: number;
  inFlight: number;
  waiting: number;
  /** 429 and 503 answers seen. */
  throttles: number;
  /** Attempts that ended in a timeout. */
  timeouts: number;
  /** Times the limit was cut. */
  decreases: number;
  baselineMs: number | null;
  /** Where the starting limit came from; `rejected-state` when a saved state was unusable. */
  startedFrom: 'initial' | 'state' | 'rejected-state';
}

const THROTTLE_STATUSES = new Set([429, 503]);

function checkOptions(o: AdaptiveLimiterOptions): void {
  if (!Number.isInteger(o.min) || o.min < 1)
    throw new ValidationError('min', 'must be an integer of at least 1');
  if (!Number.isInteger(o.max) || o.max < o.min)
    throw new ValidationError('max', 'must be an integer of at least min');
  if (!Number.isInteger(o.initial) || o.initial < o.min || o.initial > o.max)
    throw new ValidationError('initial', 'must be an integer from min to max');
  if (o.latencyFactor !== undefined && !(o.latencyFactor > 1))
    throw new ValidationError('latencyFactor', 'must be greater than 1');
  if (o.cooldownMs !== undefined && !(o.cooldownMs >= 0))
    throw new ValidationError('cooldownMs', 'must be 0 or more');
}

/**
 * A concurrency limit shared by everything a run does, learned from the service's answers
 * (additive increase, multiplicative decrease), because the service publishes no rate limit.
 *
 * - `run(work)` waits for a slot, first come first served, runs the work and frees the slot.
 *   A limit that shrinks never cancels work in flight; new work waits until fewer than `limit`
 *   are in flight.
 * - Signals come from `observe` (one per attempt, usually through `attach(client)`), not from
 *   `run`, because one `run` may hold a page fetch with its retries plus work of our own.
 * - A 429 or 503, an attempt that timed out, and a recent latency above `latencyFactor` times
 *   the baseline (see LatencyTrend) each halve the limit (never below `min`).
 * - At most one cut per window: a signal counts only when its attempt started after the latest
 *   cut (its start is `now() - durationMs`), since attempts sent before the cut describe the
 *   load that caused it, and a burst of 429s from many parallel calls is one signal, not many
 *   (as TCP cuts its window once per round trip). `cooldownMs` adds a least time between cuts.
 *   Retries sent after a cut that are throttled again cut again: the smaller limit was still
 *   too much.
 * - Each answer below 400 adds `1 / limit`, about one slot per window's worth of answers, up to
 *   `max`, but only while at least half the slots are in use: a limit that is never reached
 *   proves nothing and would only be carried into the next invocation as a burst.
 * - Latency is sampled from answers the service worked on (below 500, not 429); throttles and
 *   proxies' 5xx are quick for the wrong reason. A process's first few answers are not sampled
 *   (connection setup), and a lasting slowdown slowly becomes the baseline (see LatencyTrend). A network error other than a timeout says
 *   nothing about load and is ignored.
 * - `save()` / `options.state` carry the limit and the baseline between invocations.
 *
 * @example
 * const limiter = new AdaptiveLimiter({ initial: 8, min: 1, max: 32, state: saved });
 * const detach = limiter.attach(client);
 * await Promise.all(sites.map((s) => limiter.run(() => fetchPage(s))));
 * detach();
 * saved = limiter.save();
 */
export class AdaptiveLimiter {
  private current: number;
  private readonly pool: LimitFunction;
  private readonly trend: LatencyTrend;
  private readonly now: () => number;
  private lastCutAt = Number.NEGATIVE_INFINITY;
  private counts = { throttles: 0, timeouts: 0, decreases: 0, peak: 0, lowest: 0 };
  private readonly startedFrom: LimiterStats['startedFrom'];

  constructor(private readonly options: AdaptiveLimiterOptions) {
    checkOptions(options);
    const state = options.state === undefined ? undefined : readLimiterState(options.state);
    this.startedFrom = options.state === undefined ? 'initial' : state ? 'state' : 'rejected-state';
    // A limit learned under other bounds is still the best guess within the new ones.
    this.current = Math.min(options.max, Math.max(options.min, state?.limit ?? options.initial));
    this.trend = new LatencyTrend(options.latencyFactor ?? 2, state?.baselineMs ?? null);
    this.now = options.now ?? Date.now;
    this.pool = pLimit(this.limit);
    this.counts.peak = this.limit;
    this.counts.lowest = this.limit;
  }

  /** Slots now: the whole part of the limit. */
  get limit(): number {
    return Math.floor(this.current);
  }

  /** Runs `work` once a slot is free, first come first served. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.pool(work);
  }

  /** One attempt's answer. */
  observe(outcome: { status: number; durationMs: number }): void {
    const { status, durationMs } = outcome;
    if (THROTTLE_STATUSES.has(status)) {
      this.counts.throttles++;
      this.cut('throttle', durationMs);
      return;
    }
    if (status >= 500) return;
    this.trend.add(durationMs);
    if (this.trend.rising()) this.cut('latency', durationMs);
    else if (status < 400) this.grow();
  }

  /** One attempt that ended without an answer (the client's `requestFailed`). */
  observeFailure(failure: { reason: string; durationMs: number }): void {
    if (failure.reason !== 'timeout') return;
    this.counts.timeouts++;
    this.cut('timeout', failure.durationMs);
  }

  /**
   * Feeds every attempt of a client into this limiter; answers the function that stops it.
   *
   * @example
   * const detach = limiter.attach(client);
   */
  attach(client: { readonly events: ClientEmitter }): () => void {
    const offResponse = client.events.on('response', (e) => this.observe(e));
    const offFailed = client.events.on('requestFailed', (e) => this.observeFailure(e));
    return () => {
      offResponse();
      offFailed();
    };
  }

  /** What to pass as `state` to the next invocation's limiter. */
  save(): LimiterState {
    return { limit: this.current, baselineMs: this.trend.baselineMs };
  }

  stats(): LimiterStats {
    return {
      limit: this.limit,
      peakLimit: this.counts.peak,
      lowestLimit: this.counts.lowest,
      inFlight: this.pool.activeCount,
      waiting: this.pool.pendingCount,
      throttles: this.counts.throttles,
      timeouts: this.counts.timeouts,
      decreases: this.counts.decreases,
      baselineMs: this.trend.baselineMs,
      startedFrom: this.startedFrom,
    };
  }

  private cut(reason: LimitChangeReason, durationMs: number): void {
    const now = this.now();
    const sentAt = now - Math.max(0, Number.isFinite(durationMs) ? durationMs : 0);
    if (sentAt <= this.lastCutAt) return;
    if (now - this.lastCutAt < (this.options.cooldownMs ?? 0)) return;
    this.lastCutAt = now;
    const next = Math.max(this.options.min, Math.floor(this.current * 0.5));
    if (next >= this.current) return;
    this.counts.decreases++;
    this.set(next, reason);
  }

  private grow(): void {
    if (this.pool.activeCount * 2 < this.limit) return;
    this.set(Math.min(this.options.max, this.current + 1 / this.current), 'increase');
  }

  private set(next: number, reason: LimitChangeReason): void {
    const before = this.limit;
    this.current = next;
    const slots = this.limit;
    if (slots === before) return;
    this.pool.concurrency = slots;
    this.counts.peak = Math.max(this.counts.peak, slots);
    this.counts.lowest = Math.min(this.counts.lowest, slots);
    this.options.onChange?.(slots, reason);
  }
}
