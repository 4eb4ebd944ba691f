import { AlertPublisher, StateStore, s3Client, snsClient } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';
import {
  BucketEnv,
  flag,
  GsmEnv,
  intSetting,
  readEnv,
  ServiceEnv,
  TopicEnv,
} from '../shared/env.js';
import { lambda, MetricUnit, observability } from '../shared/observability.js';
import { serviceRuntime } from '../shared/runtime.js';
import { scanGsm } from './scan.js';

/** infection-alerter: every few minutes, alert on endpoints newly infected since the last run. */
const env = readEnv(
  z.extend(ServiceEnv, {
    ...BucketEnv.shape,
    ...GsmEnv.shape,
    ...TopicEnv.shape,
    INFECTION_SUMMARY_THRESHOLD: intSetting({ min: 1, default: 10 }),
    ALERT_ON_CLEAN: flag,
    CURSOR_OVERLAP_SECONDS: intSetting({ min: 0, default: 120 }),
    INFECTION_PAGE_SIZE: intSetting({ min: 1, max: 1000, default: 1000 }),
    // Above the function's 2-minute timeout, so a claim past its lease has a dead owner.
    INFECTION_CLAIM_LEASE_SECONDS: intSetting({ min: 1, max: 86_400, default: 180 }),
  }),
);
const obs = observability('infection-alerter');
const runtime = serviceRuntime('infection-alerter', obs, env);
const state = new StateStore(s3Client(), env.REPORT_BUCKET);
const alerts = new AlertPublisher(snsClient(), env.ALERT_TOPIC_ARN);

/** A lease shorter than the invocation could let a live run's claims be taken over. */
const LEASE_MARGIN_MS = 30_000;

export const handler = lambda(obs, async (_event: unknown, context) => {
  runtime.bind(context);
  const leaseMs = Math.max(
    env.INFECTION_CLAIM_LEASE_SECONDS * 1000,
    context.getRemainingTimeInMillis() + LEASE_MARGIN_MS,
  );
  const outcomes = [];
  for (const gsm of env.GSM_KEYS) {
    const outcome = await scanGsm({ client: runtime.client, state, alerts }, gsm, {
      summaryThreshold: env.INFECTION_SUMMARY_THRESHOLD,
      alertOnClean: env.ALERT_ON_CLEAN,
      overlapMs: env.CURSOR_OVERLAP_SECONDS * 1000,
      pageSize: env.INFECTION_PAGE_SIZE,
      owner: context.awsRequestId,
      leaseMs,
    });
    obs.metrics.addMetric('EndpointsExamined', MetricUnit.Count, outcome.examined);
    obs.metrics.addMetric('NewInfections', MetricUnit.Count, outcome.infected);
    obs.metrics.addMetric('ClaimsRecovered', MetricUnit.Count, outcome.recovered);
    obs.logger.info('scanned', { ...outcome });
    outcomes.push(outcome);
  }
  return { outcomes };
});
