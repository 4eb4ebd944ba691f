import * as z from 'zod';
import { FAULT_KINDS, FAULT_STATUSES, type FaultRule, OPERATIONS } from './types.js';

/**
 * The FaultRule type as a schema, so that no way in (options, the CLI, the admin API) accepts
 * a rule the emulator could not apply: a status outside FAULT_STATUSES would otherwise reach
 * `res.writeHead` and take the process down on the first request.
 */

/** The optional fields of a rule, as the CLI's `name=value` syntax names them. */
export const FAULT_RULE_FIELDS = [
  'status',
  'probability',
  'count',
  'afterRequests',
  'retryAfterSeconds',
  'latencyMs',
  'body',
] as const;

const got = (input: unknown) => ` (got ${JSON.stringify(input) ?? String(input)})`;
const integer = (min: number, max: number) =>
  z
    .number({ error: (iss) => `must be a number${got(iss.input)}` })
    .int({ error: (iss) => `must be an integer${got(iss.input)}` })
    .min(min, { error: (iss) => `must be at least ${min}${got(iss.input)}` })
    .max(max, { error: (iss) => `must be at most ${max}${got(iss.input)}` });

const FaultRuleSchema = z
  .strictObject(
    {
      operation: z
        .enum([...OPERATIONS, '*'], {
          error: (iss) => `must be * or one of ${OPERATIONS.join(', ')}${got(iss.input)}`,
        })
        .optional(),
      pathIncludes: z
        .string({ error: (iss) => `must be text${got(iss.input)}` })
        .min(1, { error: 'must not be empty' })
        .max(2048, { error: 'must be at most 2048 characters' })
        .optional(),
      kind: z.enum(FAULT_KINDS, {
        error: (iss) => `must be one of ${FAULT_KINDS.join(', ')}${got(iss.input)}`,
      }),
      status: z
        .literal(FAULT_STATUSES, {
          error: (iss) => `must be one of ${FAULT_STATUSES.join(', ')}${got(iss.input)}`,
        })
        .optional(),
      probability: z
        .number({ error: (iss) => `must be a number from 0 to 1${got(iss.input)}` })
        .min(0, { error: (iss) => `must be a number from 0 to 1${got(iss.input)}` })
        .max(1, { error: (iss) => `must be a number from 0 to 1${got(iss.input)}` })
        .optional(),
      count: integer(0, Number.MAX_SAFE_INTEGER).optional(),
      afterRequests: integer(0, Number.MAX_SAFE_INTEGER).optional(),
      retryAfterSeconds: integer(0, 86_400).optional(),
      latencyMs: integer(0, 600_000).optional(),
      body: z
        .enum(['error', 'html'], { error: (iss) => `must be error or html${got(iss.input)}` })
        .optional(),
    },
    {
      error: (iss) =>
        iss.code === 'invalid_type' ? `must be a fault rule object${got(iss.input)}` : undefined,
    },
  )
  .superRefine((rule, ctx) => {
    // A field of another kind would be silently ignored; say so instead.
    if (rule.status !== undefined && rule.kind !== 'status') {
      ctx.addIssue({ code: 'custom', path: ['status'], message: 'applies to kind status only' });
    }
    if (rule.body !== undefined && rule.kind !== 'status') {
      ctx.addIssue({ code: 'custom', path: ['body'], message: 'applies to kind status only' });
    }
    if (rule.latencyMs !== undefined && rule.kind !== 'latency') {
      ctx.addIssue({
        code: 'custom',
        path: ['latencyMs'],
        message: 'applies to kind latency only',
      });
    }
  });

/** A refused fault rule: which rule, which field and why, e.g. `faults[0].status must be …`. */
export class FaultRuleError extends RangeError {
  constructor(
    readonly index: number,
    readonly field: string,
    readonly rule: string,
    label: string,
  ) {
    super(`invalid fault rule: ${label}[${index}]${field ? `.${field}` : ''} ${rule}`);
    this.name = 'FaultRuleError';
  }
}

/**
 * Validates a list of fault rules; throws a FaultRuleError naming the first bad field.
 * `label` names the list in the message (`faults` for the admin API, the option name otherwise).
 */
export function parseFaultRules(input: unknown, label = 'faults'): FaultRule[] {
  if (!Array.isArray(input)) throw new FaultRuleError(0, '', 'must be a list of rules', label);
  const rules: FaultRule[] = [];
  for (const [index, item] of input.entries()) {
    const parsed = FaultRuleSchema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      // An unrecognized key names the key in `keys`, not in `path`.
      const keys = issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : '';
      const field = [...(issue?.path ?? []).map(String), keys].filter(Boolean).join('.');
      const message =
        issue?.code === 'unrecognized_keys'
          ? `is not a fault rule field; use operation, pathIncludes, kind, ${FAULT_RULE_FIELDS.join(', ')}`
          : (issue?.message ?? 'is invalid');
      throw new FaultRuleError(index, field, message, label);
    }
    rules.push(parsed.data as FaultRule);
  }
  return rules;
}
