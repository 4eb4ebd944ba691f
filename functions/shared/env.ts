import * as z from 'zod';
import { ConfigError } from '../../lib/aws/index.js';

/**
 * Function configuration comes from environment variables that carry names and ARNs, never
 * secret values (docs/operations.md lists them all). A bad value fails the cold start with the
 * variable's name, not the first request with a confusing error.
 */
export function readEnv<S extends z.ZodObject>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(String(issue?.path[0] ?? '(unknown)'), issue?.message ?? 'is invalid');
  }
  return parsed.data;
}

const csv = z
  .string()
  .min(1)
  .transform((s) =>
    s
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  );

export const ServiceEnv = z.object({
  SKYWATCH_BASE_URL: z.url(),
  SKYWATCH_AUTH_URL: z.url(),
  TOKEN_SECRET_ARN: z.string().min(1),
  /** Appended to the User-Agent, e.g. an MSP's name. */
  SKYWATCH_USER_AGENT_SUFFIX: z.string().optional(),
  /** Per-attempt timeout of service calls (the invocation's remaining time bounds the whole). */
  SKYWATCH_ATTEMPT_TIMEOUT_MS: z.coerce.number().int().min(100).max(900_000).default(10_000),
  /** Attempts per idempotent service call, the first included. */
  SKYWATCH_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(4),
  /** Longest total wait between attempts of one call (throttling can need minutes). */
  SKYWATCH_MAX_RETRY_WAIT_MS: z.coerce.number().int().min(0).max(900_000).default(20_000),
  /** Wait for the token refresher's new token when the stored one is stale (refresh gap). */
  TOKEN_WAIT_SECONDS: z.coerce.number().int().min(0).max(600).default(60),
});

export const BucketEnv = z.object({ REPORT_BUCKET: z.string().min(3) });
export const TopicEnv = z.object({ ALERT_TOPIC_ARN: z.string().min(1) });
export const GsmEnv = z.object({ GSM_KEYS: csv });
export const CredentialsEnv = z.object({ CREDENTIALS_SECRET_ARN: z.string().min(1) });

/** `true`/`false`/`1`/`0`, for switches such as ALERT_ON_CLEAN. */
export const flag = z
  .enum(['true', 'false', '1', '0'])
  .default('false')
  .transform((v) => v === 'true' || v === '1');
