import { ConfigError } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';

/**
 * Function configuration comes from environment variables that carry names and ARNs, never
 * secret values (docs/operations.md lists them all). A bad value fails the cold start with the
 * variable's name, not the first request with a confusing error.
 */
export function readEnv<S extends z.ZodMiniObject>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  const parsed = z.safeParse(schema, env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(String(issue?.path[0] ?? '(unknown)'), issue?.message ?? 'is invalid');
  }
  return parsed.data;
}

const csv = z.pipe(
  z.string().check(z.minLength(1)),
  z.transform((s: string) =>
    s
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  ),
);

/**
 * A whole number read from the environment, within bounds, and its default when unset.
 *
 * @example
 * const Env = z.object({ SITE_CONCURRENCY: intSetting({ min: 1, max: 64, default: 8 }) });
 */
export function intSetting(options: { min: number; max?: number; default: number }) {
  const { min, max } = options;
  const bounds = max === undefined ? [z.minimum(min)] : [z.minimum(min), z.maximum(max)];
  return z._default(z.coerce.number().check(z.int(), ...bounds), options.default);
}

const NonEmpty = z.string().check(z.minLength(1));

export const ServiceEnv = z.object({
  SKYWATCH_BASE_URL: z.url(),
  SKYWATCH_AUTH_URL: z.url(),
  TOKEN_SECRET_ARN: NonEmpty,
  /** Appended to the User-Agent, e.g. an MSP's name. */
  SKYWATCH_USER_AGENT_SUFFIX: z.optional(z.string()),
  /** Per-attempt timeout of service calls (the invocation's remaining time bounds the whole). */
  SKYWATCH_ATTEMPT_TIMEOUT_MS: intSetting({ min: 100, max: 900_000, default: 10_000 }),
  /** Attempts per idempotent service call, the first included. */
  SKYWATCH_MAX_ATTEMPTS: intSetting({ min: 1, max: 20, default: 4 }),
  /** Longest total wait between attempts of one call (throttling can need minutes). */
  SKYWATCH_MAX_RETRY_WAIT_MS: intSetting({ min: 0, max: 900_000, default: 20_000 }),
  /** Wait for the token refresher's new token when the stored one is stale (refresh gap). */
  TOKEN_WAIT_SECONDS: intSetting({ min: 0, max: 600, default: 60 }),
});

export const BucketEnv = z.object({ REPORT_BUCKET: z.string().check(z.minLength(3)) });
export const TopicEnv = z.object({ ALERT_TOPIC_ARN: NonEmpty });
export const GsmEnv = z.object({ GSM_KEYS: csv });
export const CredentialsEnv = z.object({ CREDENTIALS_SECRET_ARN: NonEmpty });
