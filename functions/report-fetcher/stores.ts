import { ReportStore, StateStore, s3Client, sqsClient, WorkQueue } from '../../lib/aws/index.js';
import type { SkywatchClient } from '../../lib/index.js';
import type { ArchiveEnvValues } from './archive-env.js';
import type { ContinueMessage } from './continue.js';
import { JobStore } from './job-store.js';
import type { JobDeps } from './run-job.js';

export interface ArchiveDeps extends JobDeps {
  /** The archive queue a job that must stop is handed over on, when the function has one. */
  queue?: WorkQueue<ContinueMessage> | undefined;
}

/**
 * Where the report fetcher and its archive worker read and write, all in the report bucket:
 * the archive, the day jobs (under state/) and the manifests written from them.
 */
export function archiveDeps(env: ArchiveEnvValues, client: SkywatchClient): ArchiveDeps {
  const s3 = s3Client();
  return {
    client,
    s3,
    bucket: env.REPORT_BUCKET,
    store: new ReportStore(s3, env.REPORT_BUCKET, { gzipLevel: env.ARCHIVE_GZIP_LEVEL }),
    jobs: new JobStore(new StateStore(s3, env.REPORT_BUCKET)),
    manifests: new StateStore(s3, env.REPORT_BUCKET, ''),
    queue: env.ARCHIVE_QUEUE_URL
      ? new WorkQueue<ContinueMessage>(sqsClient(), env.ARCHIVE_QUEUE_URL)
      : undefined,
  };
}
