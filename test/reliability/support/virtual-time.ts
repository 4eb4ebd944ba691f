import type { Context } from 'aws-lambda';
import type { Clock } from '../../../lib/http/clock.js';
import { lambdaContext } from '../../../scripts/local/lambda-context.js';

/**
 * The client's time for the fault-injection suites: each wait it decides on (a back-off, a
 * Retry-After) ends at once and moves this clock on to the moment it would have ended. The
 * decisions are the product's own and are asserted as before; only the waiting goes. Waits
 * that overlap in real time overlap here too: the clock moves to the latest wake-up, not by
 * the sum. Its time never goes back, however many cold starts (fresh modules) read it.
 *
 * A suite installs it as the client's default clock, the same instance it imports itself (a
 * factory's own import would get a fresh one after vi.resetModules):
 *
 * @example
 * const virtualTime = await vi.hoisted(() => import('./support/virtual-time.js'));
 * vi.mock('../../lib/http/clock.js', () => virtualTime);
 */
let ahead = 0;

export const systemClock: Clock = {
  now: () => Date.now() + ahead,
  sleep: async (ms) => {
    const wake = systemClock.now() + Math.max(0, ms);
    // Waits begun in the same turn all end before the clock moves: they overlap.
    await new Promise<void>((resolve) => setImmediate(resolve));
    ahead = Math.max(ahead, wake - Date.now());
  },
  random: () => Math.random(),
};

/** Milliseconds this clock is ahead of the real one: the waiting the suite did not do. */
export function skippedMs(): number {
  return ahead;
}

/**
 * A Lambda context whose remaining time runs on this clock, so the waits skipped still use up
 * the invocation's time as they would in Lambda.
 */
export function virtualContext(functionName: string, timeoutMs = 60_000): Context {
  const deadline = systemClock.now() + timeoutMs;
  return {
    ...lambdaContext(functionName, timeoutMs),
    getRemainingTimeInMillis: () => Math.max(0, deadline - systemClock.now()),
  };
}
