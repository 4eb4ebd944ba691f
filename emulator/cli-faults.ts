import { FAULT_RULE_FIELDS, FaultRuleError, parseFaultRules } from './fault-rules.js';
import type { FaultRule } from './types.js';

/**
 * The `--faults` flag (and EMULATOR_FAULTS): comma-separated rules, each
 *
 *   OPERATION:KIND[:STATUS][:PROBABILITY][:FIELD=VALUE]…
 *
 * e.g. `status.gsm:status:503:0.1:retryAfterSeconds=5,token:latency:latencyMs=800:count=3`.
 * STATUS is read only for kind `status`; FIELD is one of FAULT_RULE_FIELDS. Each rule is then
 * checked like the admin API's, and a bad one is refused naming the flag, the rule and the field.
 */

const FLAG = '--faults';
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
type Field = (typeof FAULT_RULE_FIELDS)[number];

/** A number when the text is one; otherwise the text, which the rule check then refuses by name. */
const value = (text: string): number | string => (NUMBER.test(text) ? Number(text) : text);

function parseRule(spec: string): FaultRule {
  const fail = (why: string) => new RangeError(`${FLAG} rule ${JSON.stringify(spec)}: ${why}`);
  const [operation = '', kind = '', ...rest] = spec.split(':');
  const rule: Record<string, unknown> = { operation, kind };
  const positional: Field[] = kind === 'status' ? ['status', 'probability'] : ['probability'];
  let named = false;
  for (const part of rest) {
    const eq = part.indexOf('=');
    const field = eq < 0 ? positional.shift() : part.slice(0, eq);
    if (eq < 0 && (named || field === undefined)) {
      throw fail(`unexpected ${JSON.stringify(part)}; name it as FIELD=VALUE`);
    }
    if (eq >= 0) {
      named = true;
      if (!(FAULT_RULE_FIELDS as readonly string[]).includes(field ?? '')) {
        throw fail(`unknown field ${JSON.stringify(field)}; use ${FAULT_RULE_FIELDS.join(', ')}`);
      }
    }
    const name = field as Field;
    if (name in rule) throw fail(`${name} is given more than once`);
    rule[name] = value(eq < 0 ? part : part.slice(eq + 1));
  }
  try {
    const [parsed] = parseFaultRules([rule]);
    return parsed as FaultRule;
  } catch (error) {
    if (error instanceof FaultRuleError) throw fail(`${error.field || 'rule'} ${error.rule}`);
    throw error;
  }
}

/** Parses the flag's text; an empty text is no rules. */
export function parseFaults(text: string): FaultRule[] {
  return text
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec.length > 0)
    .map(parseRule);
}
