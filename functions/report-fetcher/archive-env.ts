import { DEFAULT_GZIP_LEVEL } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';
import { BucketEnv, intSetting } from '../shared/env.js';

/**
 * Service calls at once unless set: each holds a page of up to 1,000 entries while it is read,
 * so memory grows with it; a big console on a slow service is worth more (docs/operations.md).
 */
export const SERVICE_CONCURRENCY_DEFAULT = 4;

/**
 * How the report fetcher and its archive worker archive a day: the bucket, how hard they
 * compress (1 fastest … 9 smallest), how many service calls run at once, when a console is
 * walked site by site, and how a job that outgrows an invocation stops and goes on
 * (docs/operations.md, "Big consoles"). Not in shared/env.ts: the store's default would pull S3
 * into every bundle.
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
