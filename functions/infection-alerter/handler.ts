import { AlertPublisher, StateStore, s3Client, snsClient } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';
import {
  BucketEnv,
  flag,
  flagOn,
  GsmEnv,
  intSetting,
  readEnv,
  ServiceEnv,
  TopicEnv,
} from '../shared/env.js';
import { lambda, loggableError, MetricUnit, observability } from '../shared/observability.js';
import { serviceRuntime } from '../shared/runtime.js';
import { HEALTH_GROUPS, type HealthOutcome, HealthPass } from './health/pass.js';
import { scanGsm } from './scan.js';
import { gsmBudgets, UNBOUNDED } from './walk-budget.js';
import { reportWalk } from './walk-metrics.js';

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
    /** Health alerts with a lifecycle (docs/operations.md); `false` keeps only infection alerts. */
    HEALTH_ALERTS: flagOn,
    /** The alert rules object, under the bucket's `state/`; absent means every default. */
    ALERT_RULES_KEY: z._default(z.string().check(z.minLength(1)), 'config/alert-rules.json'),
    HEALTH_FULL_CHECK_HOURS: intSetting({ min: 1, max: 168, default: 24 }),
    /**
     * A walk stops at a page boundary once less than this is left of the invocation, and the
     * next run goes on (docs/operations.md, "Big consoles"). It must hold one page's work plus
     * sending the alerts claimed, the health pass's finish and the state writes.
     */
    WALK_RESERVE_SECONDS: intSetting({ min: 1, max: 840, default: 45 }),
  }),
);
const obs = await observability('infection-alerter');
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
  // Never more than half of what the invocation has, so every run walks (a shorter timeout,
  // or a local run's context, would otherwise leave no time at all to walk).
  const remainingMs = () => context.getRemainingTimeInMillis();
  const reserveMs = Math.min(env.WALK_RESERVE_SECONDS * 1000, remainingMs() / 2);
  const budgets = gsmBudgets(remainingMs, reserveMs, env.GSM_KEYS.length);
  const outcomes = [];
  const deps = { client: runtime.client, state, alerts };
  for (const [i, gsm] of env.GSM_KEYS.entries()) {
    const budget = budgets[i] ?? UNBOUNDED;
    // A health pass that cannot start (bad rules, S3 down) must not stop infection alerts:
    // the scan runs without it, then the run fails with the reason.
    let startError: unknown;
    const health = env.HEALTH_ALERTS
      ? await HealthPass.start(deps, gsm, {
          rulesKey: env.ALERT_RULES_KEY,
          fullCheckHours: env.HEALTH_FULL_CHECK_HOURS,
          pageSize: env.INFECTION_PAGE_SIZE,
          reportBucket: env.REPORT_BUCKET,
          budget,
          onNameError: (error) =>
            obs.logger.warn('alerts name keycodes: a usage report could not be read', {
              error: loggableError(error),
            }),
        }).catch((error: unknown) => {
          startError = error;
          return undefined;
        })
      : undefined;
    let scanError: unknown;
    const outcome = await scanGsm(deps, gsm, {
      summaryThreshold: env.INFECTION_SUMMARY_THRESHOLD,
      alertOnClean: env.ALERT_ON_CLEAN,
      overlapMs: env.CURSOR_OVERLAP_SECONDS * 1000,
      pageSize: env.INFECTION_PAGE_SIZE,
      owner: context.awsRequestId,
      leaseMs,
      budget,
      ...(health ? { extraGroups: HEALTH_GROUPS, onEntry: health.observe } : {}),
    }).catch((error: unknown) => {
      scanError = error;
      return undefined;
    });
    // Health transitions the walk wrote are sent even when the walk failed; then it rethrows.
    let healthOutcome: HealthOutcome | undefined;
    try {
      if (health) healthOutcome = await health.finish();
    } catch (error) {
      if (scanError === undefined) throw error;
      throw new AggregateError([scanError, error], 'the scan failed and so did health alerting');
    }
    if (scanError !== undefined || !outcome) throw scanError;
    if (startError !== undefined) throw startError;
    reportWalk(obs, gsm, outcome.walk);
    reportWalk(obs, gsm, healthOutcome?.fullCheckWalk);
    if (healthOutcome) {
      obs.metrics.addMetric('HealthEventsPublished', MetricUnit.Count, healthOutcome.published);
      const skipped = Object.values(healthOutcome.skipped).reduce((a, b) => a + b, 0);
      obs.metrics.addMetric('HealthEntriesSkipped', MetricUnit.Count, skipped);
      obs.logger.info('health', { gsm, ...healthOutcome, events: undefined });
    }
    obs.metrics.addMetric('EndpointsExamined', MetricUnit.Count, outcome.examined);
    obs.metrics.addMetric('NewInfections', MetricUnit.Count, outcome.infected);
    obs.metrics.addMetric('ClaimsRecovered', MetricUnit.Count, outcome.recovered);
    obs.logger.info('scanned', { ...outcome });
    outcomes.push({ ...outcome, health: healthOutcome && { ...healthOutcome, events: undefined } });
  }
  return { outcomes };
});
