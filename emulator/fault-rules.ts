import * as z from 'zod';
import { type FaultRule, OPERATIONS } from './types.js';

/** The FaultRule type as a schema, so the admin API refuses rules it could not apply. */
const FaultRuleSchema = z
  .object({
    operation: z.enum([...OPERATIONS, '*']).optional(),
    pathIncludes: z.string().min(1).max(2048).optional(),
    kind: z.enum(['status', 'latency', 'reset', 'truncate', 'malformed', 'revoke', 'wrong-type']),
    status: z
      .union([z.literal(429), z.literal(500), z.literal(502), z.literal(503), z.literal(504)])
      .optional(),
    probability: z.number().min(0).max(1).optional(),
    count: z.number().int().min(0).optional(),
    afterRequests: z.number().int().min(0).optional(),
    retryAfterSeconds: z.number().int().min(0).max(86_400).optional(),
    latencyMs: z.number().int().min(0).max(600_000).optional(),
  })
  .strict();

export function parseFaultRules(input: unknown): FaultRule[] {
  const parsed = z.array(FaultRuleSchema).safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RangeError(
      `invalid fault rule at faults.${issue?.path.join('.')}: ${issue?.message}`,
    );
  }
  return parsed.data as FaultRule[];
}
