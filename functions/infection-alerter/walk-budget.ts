/**
 * How long a walk may go on in this invocation. A walk asks before each page: once the time
 * left drops below the reserve it stops at that page boundary and a later invocation goes on,
 * so what follows the walk (sending the alerts it claimed, the health pass's finish, the state
 * writes) still fits before Lambda ends the invocation.
 */
export interface WalkBudget {
  /** True when no further page should be started. */
  spent(): boolean;
}

/** A budget with no end, for callers without a deadline (scripts, unit tests). */
export const UNBOUNDED: WalkBudget = { spent: () => false };

/**
 * @example
 * const budget = walkBudget(() => context.getRemainingTimeInMillis(), 45_000);
 */
export function walkBudget(remainingMs: () => number, reserveMs: number): WalkBudget {
  return { spent: () => remainingMs() < reserveMs };
}
