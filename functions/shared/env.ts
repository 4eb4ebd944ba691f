import { ConfigError, DEFAULT_GZIP_LEVEL } from '../../lib/aws/index.js';
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

/**
 * Service calls at once unless set: each holds a page of up to 1,000 entries while it is read,
 * so memory grows with it; a big console on a slow service is worth more (docs/operations.md).
 */
export const SERVICE_CONCURRENCY_DEFAULT = 4;

/**
 * How the report fetcher and its archive worker archive a day: the bucket, how hard they
 * compress (1 fastest … 9 smallest), how many service calls run at once, when a console is
 * walked site by site, and how a job that outgrows an invocation stops and goes on
 * (docs/operations.md, "Big consoles"). The store's default level costs the other functions no
 * S3 client: the project declares no side effects, so their bundles keep the constant and leave
 * the store out (test/infra/bundles.test.ts checks each bundle's clients).
 */
export const ArchiveEnv = z.extend(BucketEnv, {
  ARCHIVE_GZIP_LEVEL: intSetting({ min: 1, max: 9, default: DEFAULT_GZIP_LEVEL }),
  ARCHIVE_QUEUE_URL: z.optional(z.string()),
  /** Most service calls at once; the adaptive limiter moves below it. */
  SERVICE_CONCURRENCY: intSetting({ min: 1, max: 64, default: SERVICE_CONCURRENCY_DEFAULT }),
  /** Consoles with more endpoints are walked site by site. */
  SITE_WALK_ABOVE: intSetting({ min: 0, default: 100_000 }),
  /** Time kept back at the end of an invocation to save the job and hand it over. */
  PAUSE_RESERVE_SECONDS: intSetting({ min: 1, max: 600, default: 60 }),
  /** Transient failures (throttling, timeouts) a task may have before it fails for good. */
  TASK_MAX_ATTEMPTS: intSetting({ min: 1, max: 1000, default: 20 }),
  /** How often a running job is saved, so a crash loses little. */
  JOB_SAVE_SECONDS: intSetting({ min: 5, max: 900, default: 60 }),
  /** An unfinished job not saved for this long has lost its owner; a daily run takes it over. */
  JOB_STALE_MINUTES: intSetting({ min: 1, max: 1440, default: 30 }),
});
export type ArchiveEnvValues = z.infer<typeof ArchiveEnv>;
