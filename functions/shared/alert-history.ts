import {
  AlertHistory,
  type AlertHistoryWriter,
  ReportStore,
  s3Client,
} from '../../lib/aws/index.js';
import { loggableError, MetricUnit, type Observability } from './observability.js';

/**
 * The alert history of a function (docs/operations.md, "Alert history"): a write that fails is
 * logged and counted (`AlertHistoryWriteFailed`, to alarm on), never thrown, so no alert is
 * failed or retried for it.
 */
export function alertHistory(obs: Observability, bucket: string, writer: AlertHistoryWriter) {
  return new AlertHistory(new ReportStore(s3Client(), bucket), writer, (error, gsm) => {
    obs.logger.error('alert history not written: the alerts themselves are unaffected', {
      gsm,
      error: loggableError(error),
    });
    obs.metrics.addMetric('AlertHistoryWriteFailed', MetricUnit.Count, 1);
  });
}
