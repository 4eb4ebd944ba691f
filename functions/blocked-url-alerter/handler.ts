import { AlertPublisher, StateStore, s3Client, snsClient } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';
import { BucketEnv, GsmEnv, intSetting, readEnv, ServiceEnv, TopicEnv } from '../shared/env.js';
import { lambda, MetricUnit, observability } from '../shared/observability.js';
import { serviceRuntime } from '../shared/runtime.js';
import { checkSites } from './check-sites.js';

/** blocked-url-alerter: alert once per site and day when blocked-URL actions spike. */
const env = readEnv(
  z.extend(ServiceEnv, {
    ...BucketEnv.shape,
    ...GsmEnv.shape,
    ...TopicEnv.shape,
    BLOCKED_URL_MIN_COUNT: intSetting({ min: 0, default: 200 }),
    BLOCKED_URL_BASELINE_MULTIPLIER: z._default(z.coerce.number().check(z.minimum(1)), 3),
    BLOCKED_URL_MIN_BASELINE_DAYS: intSetting({ min: 1, default: 3 }),
    SITE_CONCURRENCY: intSetting({ min: 1, max: 64, default: 8 }),
  }),
);
const obs = await observability('blocked-url-alerter');
const runtime = serviceRuntime('blocked-url-alerter', obs, env);
const state = new StateStore(s3Client(), env.REPORT_BUCKET);
const alerts = new AlertPublisher(snsClient(), env.ALERT_TOPIC_ARN);

export const handler = lambda(obs, async (_event: unknown, context) => {
  runtime.bind(context);
  const outcomes = [];
  for (const gsm of env.GSM_KEYS) {
    const outcome = await checkSites(
      { client: runtime.client, state, alerts },
      gsm,
      {
        minCount: env.BLOCKED_URL_MIN_COUNT,
        baselineMultiplier: env.BLOCKED_URL_BASELINE_MULTIPLIER,
        minBaselineDays: env.BLOCKED_URL_MIN_BASELINE_DAYS,
      },
      env.SITE_CONCURRENCY,
    );
    obs.metrics.addMetric('BlockedUrlSpikes', MetricUnit.Count, outcome.spikes);
    obs.metrics.addMetric('SitesFailed', MetricUnit.Count, outcome.failed.length);
    obs.logger.info('checked', { ...outcome });
    outcomes.push(outcome);
  }
  // A site that could not be checked may hide a spike: fail so Lambda retries and alarms see it.
  const failed = outcomes.flatMap((o) => o.failed);
  if (failed.length > 0)
    throw new Error(
      `${failed.length} site(s) could not be checked: ${failed.map((f) => f.site).join(', ')}`,
    );
  return { outcomes };
});
