import { backoffDelay, DEFAULT_RETRY, systemClock } from '../../lib/http/index.js';
import { askedDelayMs } from './notify.js';

export interface RetrySchedule {
  /** The first back-off ceiling; each further receive doubles it (full jitter). */
  baseMs: number;
  /** The longest back-off, Retry-After aside. */
  maxMs: number;
  /** The shortest, so that a failing receiver is never polled in a tight loop. */
  minMs: number;
}

/**
 * When a message whose delivery failed is handed out again: the project's back-off (lib/http,
 * full jitter) on a schedule of minutes, counted in receives, and never before the receiver's
 * Retry-After, which is honoured in full (Slack may disable an app that posts while limited).
 */
export function deliveryRetryMs(
  schedule: RetrySchedule,
  receives: number,
  error: unknown,
  random: () => number = () => systemClock.random(),
): number {
  const policy = { ...DEFAULT_RETRY, baseDelayMs: schedule.baseMs, maxDelayMs: schedule.maxMs };
  const backoff = Math.max(schedule.minMs, backoffDelay(receives, policy, random));
  return Math.max(backoff, askedDelayMs(error) ?? 0);
}
