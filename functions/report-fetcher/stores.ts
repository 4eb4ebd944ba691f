import { ReportStore, StateStore, s3Client } from '../../lib/aws/index.js';
import { DayRecords } from './day-records.js';

/**
 * Where the report fetcher and its site worker write, all in the report bucket: the archive,
 * the day records each site leaves, and the manifests built from them.
 */
export function archiveStores(bucket: string, gzipLevel: number) {
  const s3 = s3Client();
  return {
    store: new ReportStore(s3, bucket, { gzipLevel }),
    records: new DayRecords(new StateStore(s3, bucket)),
    manifests: new StateStore(s3, bucket, ''),
  };
}
