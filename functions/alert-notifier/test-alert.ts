import {
  type AlertAction,
  DEFAULT_ROUTING,
  type HealthAlert,
  type RoutingDocument,
  routeAlert,
} from '../../lib/alerts/index.js';
import { redact, SkywatchError } from '../../lib/errors/index.js';
import * as z from '../../lib/zod.js';
import {
  configuredDestinations,
  type Delivery,
  deliveryTo,
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
    readonly configured: string[],
  ) {
    super(
      destination === undefined
        ? 'The notifier secret configures no destination: set slack, teams, pagerduty, webhook or one under destinations'
        : `No destination "${destination}" in the notifier secret; configured: ${configured.join(', ') || 'none'}`,
    );
    this.name = 'DestinationNotConfiguredError';
  }
}

/**
 * The routing document sends the test alert (site and GSM `TEST`, kind `attention-required`,
 * severity `info`) nowhere: nothing was sent. Name a destination to test one anyway.
 */
export class TestAlertUnroutedError extends SkywatchError {
  constructor(readonly route: string) {
    super(
      `The routing document sends the test alert nowhere (route "${route}"); name a destination to test it`,
    );
    this.name = 'TestAlertUnroutedError';
  }
}

/** What one destination made of one event of the test alert. */
export interface TestResult {
  destination: string;
  action: AlertAction;
  alertId: string;
  /** `not-configured`: the routing document names a destination the secret lacks. */
  outcome: 'delivered' | 'refused' | 'failed' | 'not-configured';
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

const NOT_IN_SECRET = 'routed here, but the notifier secret does not configure it';

/** Which destinations a test alert goes to. */
export interface TestSelection {
  /** Only this destination of the secret, whatever the routing says. */
  destination?: string | undefined;
  /**
   * The routing document in force: the test alert goes where it routes it, like any alert.
   * Without one (and without `destination`), to every destination of the secret.
   */
  routing?: RoutingDocument | undefined;
}

/**
 * Posts a test alert's trigger, then its resolve, to its destinations, at once, as the
 * notifier does: the one named, else those the routing document gives it, else every
 * destination of the secret. The webhook carries the route the test alert took. The resolve
 * is sent whatever became of the trigger: a receiver that took the trigger and answered too
 * late must not keep an open incident. Answers one result per destination and event; throws
 * DestinationNotConfiguredError or TestAlertUnroutedError, before sending anything, when
 * there is none to send to.
 *
 * @example
 * const results = await sendTestAlert(secret, options, { destination: 'pagerduty' });
 */
export async function sendTestAlert(
  secret: NotifierSecret,
  options: SendTestOptions,
  select: TestSelection = {},
): Promise<TestResult[]> {
  const now = options.now ?? (() => new Date());
  // Whoever has one of these can post: they are kept out of every message we make.
  protectSecrets(secret);
  const events = testAlert(now(), { origin: options.origin ?? 'Skywatch' });
  const configured = configuredDestinations(secret);
  const names = [...configured.keys()];
  const routed = routeAlert(select.routing ?? DEFAULT_ROUTING, events[0]);
  const only = select.destination;
  let chosen: string[];
  if (only !== undefined) chosen = names.filter((d) => d === only);
  else if (select.routing) {
    if (routed.destinations.length === 0) throw new TestAlertUnroutedError(routed.route);
    chosen = routed.destinations;
  } else chosen = names;
  if (chosen.length === 0) throw new DestinationNotConfiguredError(only, names);
  const route = { name: routed.route, fields: routed.fields };
  const each = await Promise.all(
    chosen.map(async (destination) => {
      const config = configured.get(destination);
      const out: TestResult[] = [];
      for (const alert of events) {
        const base = { destination, action: alert.action, alertId: alert.id };
        if (!config) out.push({ ...base, outcome: 'not-configured', message: NOT_IN_SECRET });
        else {
          const context = { route, consoleUrl: secret.consoleUrl, now: now() };
          out.push(await attempt(deliveryTo(destination, config, alert, context), alert, options));
        }
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
