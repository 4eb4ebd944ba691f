import type { AlertAction, HealthAlert } from '../../lib/alerts/index.js';
import { redact, SkywatchError } from '../../lib/errors/index.js';
import * as z from '../../lib/zod.js';
import {
  type Delivery,
  type DestinationName,
  deliveries,
  type NotifierSecret,
  protectSecrets,
} from './destinations.js';
import { DeliveryRejectedError, type PostOptions, post } from './post.js';

/**
 * A test alert: what an operator sends on day one to see each destination render an alert and
 * close it (docs/operations.md, "Test alert"). It is posted straight to the destinations, not
 * through the topic and the queue, so no subscriber but the notifier's destinations sees it
 * and no delivery marker or metric counts it.
 */

export interface TestAlertOptions {
  /** Who sent it, shown among the facts: `npm run alerts -- test`, `Lambda test event`. */
  origin: string;
}

/**
 * The trigger and the resolve of one test alert. Its id is `test/<ISO time>`: real ids start
 * with their kind, and `test` is none (test/functions/test-alert.test.ts keeps it so), so
 * PagerDuty's dedup_key and a receiver's de-duplication never mix it with a real alert.
 *
 * Kind `attention-required`, severity `info`: a kind every receiver already handles, with no
 * endpoint behind it, and the lowest severity, so PagerDuty files it at low urgency (its
 * `info`) rather than waking someone. `test: true`, the `[TEST]` title and a `test` fact mark
 * it in every format, the fact also as PagerDuty's `custom_details.test`.
 *
 * @example
 * const [trigger, resolve] = testAlert(new Date(), { origin: 'npm run alerts -- test' });
 */
export function testAlert(now: Date, options: TestAlertOptions): [HealthAlert, HealthAlert] {
  const at = now.toISOString();
  const id = `test/${at}`;
  const trigger: HealthAlert = {
    schema: 'skywatch.alert/v2',
    id,
    eventId: `${id}#1`,
    action: 'trigger',
    kind: 'attention-required',
    severity: 'info',
    gsm: 'TEST',
    consoleName: 'Skywatch',
    site: 'TEST',
    siteName: 'Skywatch test alert',
    hostName: null,
    machineId: null,
    title: '[TEST] Skywatch test alert: nothing is wrong',
    summary:
      '[TEST] This is a Skywatch test alert, sent to check that alerts reach this channel. ' +
      'Nothing is wrong and nothing needs doing: its resolve follows at once.',
    occurredAt: at,
    openedAt: at,
    facts: { test: true, sentBy: options.origin },
    test: true,
  };
  return [trigger, { ...trigger, eventId: `${id}#2`, action: 'resolve' }];
}

/**
 * The destination named is not one the notifier's secret configures (a typo, or one not set
 * yet), or the secret configures none: nothing was sent. Lists what is configured.
 */
export class DestinationNotConfiguredError extends SkywatchError {
  constructor(
    readonly destination: string | undefined,
    readonly configured: DestinationName[],
  ) {
    super(
      destination === undefined
        ? 'The notifier secret configures no destination: set slack, teams, pagerduty or webhook'
        : `No destination "${destination}" in the notifier secret; configured: ${configured.join(', ') || 'none'}`,
    );
    this.name = 'DestinationNotConfiguredError';
  }
}

/** What one destination made of one event of the test alert. */
export interface TestResult {
  destination: DestinationName;
  action: AlertAction;
  alertId: string;
  outcome: 'delivered' | 'refused' | 'failed';
  /** The HTTP status that decided it, when there was one. */
  status?: number;
  /** Why it was not delivered, redacted: never a URL, a routing key or a signing secret. */
  message?: string;
}

export interface SendTestOptions extends PostOptions {
  /** The test alert's time, and each request's (a signed webhook's timestamp). */
  now?: () => Date;
  /** @default 'Skywatch' */
  origin?: string;
}

/**
 * Posts a test alert's trigger, then its resolve, to each configured destination (or only
 * `destination`), the destinations at once, as the notifier does. The resolve is sent whatever
 * became of the trigger: a receiver that took the trigger and answered too late must not keep
 * an open incident. Answers one result per destination and event, in the secret's order;
 * throws DestinationNotConfiguredError, before sending anything, when there is none to send to.
 *
 * @example
 * const results = await sendTestAlert(secret, options, { destination: 'pagerduty' });
 */
export async function sendTestAlert(
  secret: NotifierSecret,
  options: SendTestOptions,
  select: { destination?: string | undefined } = {},
): Promise<TestResult[]> {
  const now = options.now ?? (() => new Date());
  // Whoever has one of these can post: they are kept out of every message we make.
  protectSecrets(secret);
  const events = testAlert(now(), { origin: options.origin ?? 'Skywatch' });
  const configured = deliveries(events[0], secret, now()).map((d) => d.destination);
  const only = select.destination;
  const chosen = only === undefined ? configured : configured.filter((d) => d === only);
  if (chosen.length === 0) throw new DestinationNotConfiguredError(only, configured);
  const each = await Promise.all(
    chosen.map(async (destination) => {
      const out: TestResult[] = [];
      for (const alert of events) {
        const delivery = deliveries(alert, secret, now()).find(
          (d) => d.destination === destination,
        );
        if (delivery) out.push(await attempt(delivery, alert, options));
      }
      return out;
    }),
  );
  return each.flat();
}

async function attempt(
  delivery: Delivery,
  alert: HealthAlert,
  options: PostOptions,
): Promise<TestResult> {
  const base = { destination: delivery.destination, action: alert.action, alertId: alert.id };
  try {
    return { ...base, outcome: 'delivered', status: await post(delivery, options) };
  } catch (error) {
    // Already redacted when it is ours; redact() again for anything else that was thrown.
    const message = redact(error instanceof Error ? error.message : String(error));
    if (error instanceof DeliveryRejectedError)
      return { ...base, outcome: 'refused', status: error.status, message };
    return { ...base, outcome: 'failed', message };
  }
}

/**
 * The notifier's Lambda test event, as typed in the console (docs/operations.md, "Test
 * alert"): `{ "skywatchTestAlert": true }`, or `"destination": "slack"` for one destination.
 */
export const TestAlertEvent = z.object({
  skywatchTestAlert: z.literal(true),
  destination: z.optional(z.string().check(z.minLength(1))),
});
export type TestAlertEvent = z.infer<typeof TestAlertEvent>;

/**
 * Whether a Lambda event is meant as a test alert, by its marker alone, so that a malformed
 * one gets `runTestAlertEvent`'s validation error rather than being read as an SQS batch.
 */
export function isTestAlertEvent(event: unknown): event is { skywatchTestAlert: unknown } {
  return typeof event === 'object' && event !== null && 'skywatchTestAlert' in event;
}

/** What the test event answers: the Lambda console shows it as the invocation's result. */
export interface TestAlertOutcome {
  /** Every destination took both events. */
  ok: boolean;
  results: TestResult[];
}

/**
 * Runs a test alert event in the notifier: validates it, then sends the test alert with the
 * notifier's own secret and post options. A destination not configured throws
 * DestinationNotConfiguredError, which names the configured ones.
 */
export async function runTestAlertEvent(
  event: unknown,
  secret: () => Promise<NotifierSecret>,
  options: PostOptions,
): Promise<TestAlertOutcome> {
  const { destination } = z.parse(TestAlertEvent, event);
  const results = await sendTestAlert(
    await secret(),
    { ...options, origin: 'Lambda test event' },
    { destination },
  );
  return { ok: results.every((r) => r.outcome === 'delivered'), results };
}
