import type { PageBudget } from '../../lib/index.js';

/**
 * How long a walk may go on in this invocation. A walk asks before each page: once the time
 * left drops below the reserve it stops at that page boundary and a later invocation goes on,
 * so what follows the walk (the health pass's finish: sending the transitions, the state
 * writes) still fits before Lambda ends the invocation.
 */
export type WalkBudget = PageBudget;

/** A budget with no end, for callers without a deadline (scripts, unit tests). */
export const UNBOUNDED: WalkBudget = { spent: () => false };

/**
 * @example
 * const budget = walkBudget(() => context.getRemainingTimeInMillis(), 45_000);
 */
export function walkBudget(remainingMs: () => number, reserveMs: number): WalkBudget {
  return { spent: () => remainingMs() < reserveMs };
}

/**
 * One budget per GSM of a run, walked one after another: each GSM gets an equal share of the
 * time there is to walk (what the invocation has now, less the reserve), so one big console's
 * walk cannot starve the GSMs after it. A GSM that finishes early leaves its share to the later
 * ones (they go by the time actually left); the last one walks to the reserve itself.
 *
 * @example
 * const budgets = gsmBudgets(() => context.getRemainingTimeInMillis(), 45_000, keys.length);
 */
export function gsmBudgets(
  remainingMs: () => number,
  reserveMs: number,
  count: number,
): WalkBudget[] {
  const share = Math.max(0, remainingMs() - reserveMs) / Math.max(1, count);
  return Array.from({ length: count }, (_, i) =>
    walkBudget(remainingMs, reserveMs + share * (count - 1 - i)),
  );
}
