import { s3Client } from '../../lib/aws/index.js';
import { buildReports, MAX_LINK_SECONDS } from '../../lib/reports/index.js';
import * as z from '../../lib/zod.js';
import { BucketEnv, GsmEnv, intSetting, readEnv, ServiceEnv } from '../shared/env.js';
import { lambda, MetricUnit, observability } from '../shared/observability.js';
import { PageLinkEnv, pageLinker } from '../shared/page-links.js';
import { serviceRuntime } from '../shared/runtime.js';
import { runPlan } from './run-plan.js';

/** report-builder: the daily HTML page per GSM, and the monthly seat CSV, after the archive. */
const env = readEnv(
  z.extend(ServiceEnv, {
    ...BucketEnv.shape,
    ...GsmEnv.shape,
    ...PageLinkEnv.shape,
    REPORT_LINK_SECONDS: intSetting({ min: 1, max: MAX_LINK_SECONDS, default: 86_400 }),
    LICENCE_EXPIRY_WINDOW_DAYS: intSetting({ min: 1, max: 365, default: 60 }),
    SITE_CONCURRENCY: intSetting({ min: 1, max: 64, default: 8 }),
  }),
);
const obs = await observability('report-builder');
const runtime = serviceRuntime('report-builder', obs, env);
const s3 = s3Client();
const links = pageLinker(env, runtime.secrets, obs);

export const handler = lambda(obs, async (event: unknown, context) => {
  runtime.bind(context);
  const plan = runPlan(event, new Date());
  const built = [];
  for (const gsm of env.GSM_KEYS) {
    const outcome = await buildReports(
      { s3, bucket: env.REPORT_BUCKET, client: runtime.client, links },
      {
        gsm,
        day: plan.day,
        seatMonth: plan.seatMonth,
        expiryWindowDays: env.LICENCE_EXPIRY_WINDOW_DAYS,
        siteConcurrency: env.SITE_CONCURRENCY,
        linkSeconds: env.REPORT_LINK_SECONDS,
      },
    );
    obs.metrics.addMetric('ReportPagesWritten', MetricUnit.Count, 1);
    obs.metrics.addMetric('ReportPageBytes', MetricUnit.Bytes, outcome.pageBytes);
    if (outcome.blockedUrlFailures.length > 0)
      obs.logger.warn('blocked-URL counts unread for some sites', {
        gsm,
        failed: outcome.blockedUrlFailures,
      });
    // The links grant read access to the pages: they are returned, never logged.
    const { pageUrl: _link, latestUrl: _latest, ...loggable } = outcome;
    obs.logger.info('report built', { ...loggable });
    built.push(outcome);
  }
  return { day: plan.day, seatMonth: plan.seatMonth ?? null, reports: built };
});
