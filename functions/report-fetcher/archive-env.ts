import { DEFAULT_GZIP_LEVEL } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';
import { BucketEnv, intSetting } from '../shared/env.js';

/**
 * Where the report fetcher and its site worker archive, and how hard they compress (1 fastest
 * … 9 smallest). Not in shared/env.ts: the store's default would pull S3 into every bundle.
 */
export const ArchiveEnv = z.extend(BucketEnv, {
  ARCHIVE_GZIP_LEVEL: intSetting({ min: 1, max: 9, default: DEFAULT_GZIP_LEVEL }),
});
