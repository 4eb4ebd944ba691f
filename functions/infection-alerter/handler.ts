import type { Context } from 'aws-lambda';
import { documentRouter } from '../../lib/alerts/index.js';
import {
  AlertPublisher,
  DeliveryQueue,
  mutesParameter,
  RoutingParameter,
  StateStore,
  s3Client,
  snsClient,
  sqsClient,
  ssmClient,
} from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';
import { alertHistory } from '../shared/alert-history.js';
import { BucketEnv, GsmEnv, intSetting, readEnv, ServiceEnv, TopicEnv } from '../shared/env.js';
import { lambda, loggableError, MetricUnit, observability } from '../shared/observability.js';
import { PageLinkEnv, pageLinker } from '../shared/page-links.js';
import { serviceRuntime } from '../shared/runtime.js';
import { walkChanges } from './changes-walk.js';
import { HEALTH_GROUPS, type HealthOutcome, HealthPass } from './health/pass.js';
import { AlerterHistory } from './history.js';
import { gsmBudgets, UNBOUNDED } from './walk-budget.js';
import { reportWalk } from './walk-metrics.js';

/**
 * infection-alerter: every few minutes, health alerts (infected, protection off, offline, …:
 * docs/operations.md, "Health alerts") on the endpoints changed since the last run, and the
 * periodic full check.
 */
const env = readEnv(
  z.extend(ServiceEnv, {
    ...BucketEnv.shape,
    ...GsmEnv.shape,
    ...TopicEnv.shape,
    ...PageLinkEnv.shape,
    CURSOR_OVERLAP_SECONDS: intSetting({ min: 0, default: 120 }),
    INFECTION_PAGE_SIZE: intSetting({ min: 1, max: 1000, default: 1000 }),
    /** The alert rules object, under the bucket's `state/`; absent means every default. */
    ALERT_RULES_KEY: z._default(z.string().check(z.minLength(1)), 'config/alert-rules.json'),
    HEALTH_FULL_CHECK_HOURS: intSetting({ min: 1, max: 168, default: 24 }),
    /** A run's claim on sending a transition; past the 2-minute timeout (health/lifecycle.ts). */
    ALERT_SEND_LEASE_SECONDS: intSetting({ min: 1, max: 3600, default: 150 }),
    /** More endpoints of a site than this triggering one kind in a run: one outbreak alert. */
    ALERT_OUTBREAK_THRESHOLD: intSetting({ min: 1, default: 5 }),
    /** The notifier's FIFO queue: each alert event, once per destination. */
    NOTIFIER_QUEUE_URL: z.string().check(z.minLength(1)),
    /**
     * The SSM parameter holding the routing document (docs/operations.md, "Routing"); unset,
     * every alert goes to the four legacy destinations.
     */
    ALERT_ROUTING_PARAMETER: z.optional(z.string().check(z.minLength(1))),
    /** How long a read of the routing document is used before SSM is asked again. */
    ALERT_ROUTING_MAX_AGE_SECONDS: intSetting({ min: 0, max: 3600, default: 60 }),
    /**
     * The SSM parameter holding the maintenance windows (docs/operations.md, "Maintenance
     * windows"), read with the routing document's cache; unset, nothing is held.
     */
    ALERT_MUTES_PARAMETER: z.optional(z.string().check(z.minLength(1))),
    /**
     * A walk stops at a page boundary once less than this is left of the invocation, and the
     * next run goes on (docs/operations.md, "Big consoles"). It must hold one page's work plus
     * the health pass's finish (sending the transitions) and the state writes.
     */
    WALK_RESERVE_SECONDS: intSetting({ min: 1, max: 840, default: 45 }),
  }),
);
const obs = await observability('infection-alerter');
const runtime = serviceRuntime('infection-alerter', obs, env);
const state = new StateStore(s3Client(), env.REPORT_BUCKET);
const pageLinks = pageLinker(env, runtime.secrets, obs);
const alerts = new AlertPublisher(snsClient(), env.ALERT_TOPIC_ARN);
/** An operator's document that could not be used: a log line, and a metric to alarm on. */
const fellBack = (message: string, parameter: string, metric: string) => (error: unknown) => {
  obs.logger.error(message, { parameter, error: loggableError(error) });
  obs.metrics.addMetric(metric, MetricUnit.Count, 1);
};
// A routing document that cannot be read or is invalid never loses an alert: every alert goes
// to the default destinations meanwhile, and this says so (a log line and a metric to alarm on).
const router = env.ALERT_ROUTING_PARAMETER
  ? new RoutingParameter(ssmClient(), env.ALERT_ROUTING_PARAMETER, {
      maxAgeSeconds: env.ALERT_ROUTING_MAX_AGE_SECONDS,
      onFallback: fellBack(
        'alert routing unusable: alerts go to the default destinations',
        env.ALERT_ROUTING_PARAMETER,
        'AlertRoutingFallback',
      ),
    })
  : documentRouter();
// Windows that cannot be read hold nothing: every alert is sent, and this says so.
const mutes = env.ALERT_MUTES_PARAMETER
  ? mutesParameter(ssmClient(), env.ALERT_MUTES_PARAMETER, {
      maxAgeSeconds: env.ALERT_ROUTING_MAX_AGE_SECONDS,
      onFallback: fellBack(
        'maintenance windows unusable: nothing is held',
        env.ALERT_MUTES_PARAMETER,
        'AlertMutesFallback',
      ),
    })
  : undefined;
const deliveries = new DeliveryQueue(sqsClient(), env.NOTIFIER_QUEUE_URL, router);
const history = new AlerterHistory(alertHistory(obs, env.REPORT_BUCKET, 'alerter'));

const walkAll = async (_event: unknown, context: Context) => {
  runtime.bind(context);
  // Never more than half of what the invocation has, so every run walks (a shorter timeout,
  // or a local run's context, would otherwise leave no time at all to walk).
  const remainingMs = () => context.getRemainingTimeInMillis();
  const reserveMs = Math.min(env.WALK_RESERVE_SECONDS * 1000, remainingMs() / 2);
  const budgets = gsmBudgets(remainingMs, reserveMs, env.GSM_KEYS.length);
  const outcomes = [];
  const deps = { client: runtime.client, state, alerts, deliveries };
  for (const [i, gsm] of env.GSM_KEYS.entries()) {
    const budget = budgets[i] ?? UNBOUNDED;
    // Before the walk: a walk without its pass would move the cursor past changes nobody
    // judged. A pass that cannot start (bad rules, S3 down) fails the run, and the next one
    // walks the same changes.
    const health = await HealthPass.start(deps, gsm, {
      rulesKey: env.ALERT_RULES_KEY,
      fullCheckHours: env.HEALTH_FULL_CHECK_HOURS,
      sendLeaseMs: env.ALERT_SEND_LEASE_SECONDS * 1000,
      outbreakThreshold: env.ALERT_OUTBREAK_THRESHOLD,
      ...(mutes ? { mutes } : {}),
      pageSize: env.INFECTION_PAGE_SIZE,
      reportBucket: env.REPORT_BUCKET,
      pageLinks,
      budget,
      onDrained: history.onDrained,
      onNameError: (error) =>
        obs.logger.warn('alerts name keycodes: a usage report could not be read', {
          error: loggableError(error),
        }),
    });
    let walkError: unknown;
    const walked = await walkChanges(deps, gsm, {
      overlapMs: env.CURSOR_OVERLAP_SECONDS * 1000,
      pageSize: env.INFECTION_PAGE_SIZE,
      groups: HEALTH_GROUPS,
      observe: health.observe,
      budget,
    }).catch((error: unknown) => {
      walkError = error;
      return undefined;
    });
    // Transitions the walk wrote are sent even when the walk failed; then it rethrows.
    let outcome: HealthOutcome;
    try {
      outcome = await health.finish();
    } catch (error) {
      if (walkError === undefined) throw error;
      throw new AggregateError([walkError, error], 'the walk failed and so did health alerting');
    }
    if (walkError !== undefined || !walked) throw walkError;
    reportWalk(obs, gsm, walked.walk);
    reportWalk(obs, gsm, outcome.fullCheckWalk);
    obs.metrics.addMetric('EndpointsExamined', MetricUnit.Count, walked.examined);
    obs.metrics.addMetric('HealthEventsPublished', MetricUnit.Count, outcome.published);
    const skipped = Object.values(outcome.skipped).reduce((a, b) => a + b, 0);
    obs.metrics.addMetric('HealthEntriesSkipped', MetricUnit.Count, skipped);
    const run = { ...walked, health: { ...outcome, events: undefined } };
    obs.logger.info('walked', run);
    outcomes.push(run);
  }
  return { outcomes };
};

// The history is written after the sends, also when a GSM failed: what went out is recorded.
export const handler = lambda(obs, async (event: unknown, context) => {
  try {
    return await walkAll(event, context);
  } finally {
    await history.flush(context.awsRequestId);
  }
});
