import { sequence } from '../data/random.js';
import type { FaultRule, OperationName } from '../types.js';

export type FaultDecision =
  | { kind: 'status'; status: number; retryAfterSeconds: number }
  | { kind: 'reset' | 'truncate' | 'malformed' | 'revoke' };

interface RuleState {
  rule: FaultRule;
  draw: () => number;
  seen: number;
  fired: number;
}

/**
 * Fault injection, deterministic from the seed: each rule draws from its own PRNG only for the
 * requests it matches, so the same seed, rules and request sequence give the same faults.
 */
export class FaultEngine {
  private rules: RuleState[] = [];
  injected = 0;

  constructor(
    private readonly seed: number,
    rules: FaultRule[],
  ) {
    this.set(rules);
  }

  set(rules: FaultRule[]): void {
    this.rules = rules.map((rule, i) => ({
      rule,
      draw: sequence(this.seed * 7919 + i * 104_729 + 17),
      seen: 0,
      fired: 0,
    }));
  }

  /** Total latency to add and the first other fault that fires for this request, if any. */
  decide(operation: OperationName, path = ''): { latencyMs: number; fault?: FaultDecision } {
    let latencyMs = 0;
    let fault: FaultDecision | undefined;
    for (const state of this.rules) {
      const { rule } = state;
      if ((rule.operation ?? '*') !== '*' && rule.operation !== operation) continue;
      if (rule.pathIncludes !== undefined && !path.includes(rule.pathIncludes)) continue;
      state.seen++;
      if (state.seen <= (rule.afterRequests ?? 0)) continue;
      if (rule.count !== undefined && state.fired >= rule.count) continue;
      if (state.draw() >= (rule.probability ?? 1)) continue;
      if (rule.kind === 'latency') {
        state.fired++;
        latencyMs += rule.latencyMs ?? 100;
        continue;
      }
      if (fault) continue;
      state.fired++;
      fault =
        rule.kind === 'status'
          ? {
              kind: 'status',
              status: rule.status ?? 503,
              retryAfterSeconds: rule.retryAfterSeconds ?? 1,
            }
          : { kind: rule.kind };
    }
    if (fault || latencyMs > 0) this.injected++;
    return fault ? { latencyMs, fault } : { latencyMs };
  }
}
