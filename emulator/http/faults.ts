import { sequence } from '../data/random.js';
import type { FaultRule, OperationName } from '../types.js';

export type FaultDecision =
  | { kind: 'status'; status: number; retryAfterSeconds?: number; html: boolean }
  | { kind: 'reset' | 'truncate' | 'malformed' | 'revoke' | 'wrong-type' };

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
              ...(rule.retryAfterSeconds === undefined
                ? {}
                : { retryAfterSeconds: rule.retryAfterSeconds }),
              html: rule.body === 'html',
            }
          : { kind: rule.kind };
    }
    if (fault || latencyMs > 0) this.injected++;
    return fault ? { latencyMs, fault } : { latencyMs };
  }
}

/** Path and holder of the last boolean under `node`, depth first in document order. */
function lastBoolean(node: unknown): { holder: Record<string, unknown>; key: string } | undefined {
  if (!node || typeof node !== 'object') return undefined;
  let found: { holder: Record<string, unknown>; key: string } | undefined;
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'boolean') found = { holder: node as Record<string, unknown>, key };
    else found = lastBoolean(value) ?? found;
  }
  return found;
}

/**
 * The `wrong-type` fault: the last boolean of the first `QueryResults` entry (of the body when
 * there is none) is sent as a string, so a client's schema must name that one field. Bodies
 * that are not JSON or hold no boolean are returned unchanged.
 */
export function withWrongType(json: string): string {
  let body: unknown;
  try {
    body = JSON.parse(json);
  } catch {
    return json;
  }
  const entries = (body as { QueryResults?: unknown } | null)?.QueryResults;
  const target = Array.isArray(entries) && entries.length > 0 ? entries[0] : body;
  const found = lastBoolean(target);
  if (!found) return json;
  found.holder[found.key] = String(found.holder[found.key]);
  return JSON.stringify(body);
}
