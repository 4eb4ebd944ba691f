import {
  DestinationName,
  type DestinationType,
  type HealthAlert,
  LEGACY_DESTINATIONS,
  type RouteRef,
} from '../../lib/alerts/index.js';
import { registerSecret } from '../../lib/errors/index.js';
import { webhookHeaders } from '../../lib/webhooks/index.js';
import * as z from '../../lib/zod.js';
import { pagerDutyEvent } from './formats/pagerduty.js';
import { slackMessage } from './formats/slack.js';
import { teamsMessage } from './formats/teams.js';

const Url = z.url({ protocol: /^https?$/ });

const Slack = z.object({ url: Url });
const Teams = z.object({ url: Url });
const PagerDuty = z.object({
  routingKey: z.string().check(z.minLength(1)),
  /** The Events API v2 endpoint; another only for a test receiver or a proxy. */
  url: z._default(Url, 'https://events.pagerduty.com/v2/enqueue'),
});
const Webhook = z.object({
  url: Url,
  /** Standard Webhooks signing secret, `whsec_` and base64. */
  secret: z.string().check(z.regex(/^whsec_[A-Za-z0-9+/=]+$/)),
});

/** A named destination of the secret: its type, and what posting to it takes. */
export const DestinationConfig = z.discriminatedUnion('type', [
  z.extend(Slack, { type: z.literal('slack') }),
  z.extend(Teams, { type: z.literal('teams') }),
  z.extend(PagerDuty, { type: z.literal('pagerduty') }),
  z.extend(Webhook, { type: z.literal('webhook') }),
]);
export type DestinationConfig = z.infer<typeof DestinationConfig>;

/** A name under `destinations` that is also a legacy top-level key: which one is meant? */
function definedOnce(secret: Record<string, unknown>, ctx: z.core.$RefinementCtx<unknown>) {
  const named = secret.destinations;
  if (typeof named !== 'object' || named === null) return;
  for (const name of LEGACY_DESTINATIONS)
    if (name in named && secret[name] !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['destinations', name],
        message: `is also the top-level key ${name}: define the destination ${name} once`,
      });
}

/**
 * The notifier's secret (Secrets Manager, NOTIFIER_SECRET_ARN): named destinations under
 * `destinations`, which the routing document names (lib/alerts/routing.ts), and the four
 * legacy top-level keys, each a destination named as its type (what deployments before
 * routing have). Every destination is optional, and only those present are sent to. URLs and
 * keys are secrets: whoever has one can post.
 */
export const NotifierSecret = z
  .object({
    slack: z.optional(Slack),
    teams: z.optional(Teams),
    pagerduty: z.optional(PagerDuty),
    webhook: z.optional(Webhook),
    destinations: z.optional(z.record(DestinationName, DestinationConfig)),
    /**
     * The service console's address for an alert, `{site}`, `{machineId}` and `{gsm}` filled
     * in (URL-encoded), shown as a link where the format has one (PagerDuty's `links`).
     */
    consoleUrl: z.optional(z.string().check(z.regex(/^https:\/\/\S+$/))),
  })
  .check(z.superRefine(definedOnce, { when: () => true }));
export type NotifierSecret = z.infer<typeof NotifierSecret>;

/**
 * Every destination of the secret by name, in the secret's order: the legacy keys first,
 * then `destinations`.
 *
 * @example
 * configuredDestinations({ slack: { url } }).get('slack') // { type: 'slack', url }
 */
export function configuredDestinations(secret: NotifierSecret): Map<string, DestinationConfig> {
  const out = new Map<string, DestinationConfig>();
  if (secret.slack) out.set('slack', { type: 'slack', ...secret.slack });
  if (secret.teams) out.set('teams', { type: 'teams', ...secret.teams });
  if (secret.pagerduty) out.set('pagerduty', { type: 'pagerduty', ...secret.pagerduty });
  if (secret.webhook) out.set('webhook', { type: 'webhook', ...secret.webhook });
  for (const [name, config] of Object.entries(secret.destinations ?? {})) out.set(name, config);
  return out;
}

/**
 * Registers every URL and key of the secret for redaction (lib/errors), so that none reaches a
 * log line or a dead-letter reason, even when a receiver echoes the request in its answer.
 */
export function protectSecrets(secret: NotifierSecret): NotifierSecret {
  for (const config of configuredDestinations(secret).values()) {
    registerSecret(config.url);
    if (config.type === 'pagerduty') registerSecret(config.routingKey);
    if (config.type === 'webhook') registerSecret(config.secret);
  }
  return secret;
}

export { DestinationName } from '../../lib/alerts/index.js';

/** One HTTP request that delivers an alert to one destination. */
export interface Delivery {
  /** The destination's name in the secret. */
  destination: string;
  /** Whose delivery contract judges the answer (./contracts.ts). */
  type: DestinationType;
  url: string;
  headers: Record<string, string>;
  body: string;
}

const json = { 'content-type': 'application/json' };

/** The console link of an alert, from the secret's template; none without one. */
export function consoleLinks(alert: HealthAlert, template: string | undefined) {
  if (!template) return [];
  const values: Record<string, string> = {
    site: alert.site,
    machineId: alert.machineId ?? '',
    gsm: alert.gsm,
  };
  const href = template.replace(/\{(site|machineId|gsm)\}/g, (_, name: string) =>
    encodeURIComponent(values[name] ?? ''),
  );
  return [{ href, text: `Open ${alert.hostName ?? alert.siteName ?? alert.site} in the console` }];
}

/**
 * The request that delivers an alert to one destination. The webhook's body is the alert with
 * `route` beside its fields (the route's name and the fields it adds, e.g. a PSA company id),
 * when the message carried one (a v1 message, from before routing, did not). Slack, Teams and
 * PagerDuty show the alert alone: the route is the operator's, not the reader's.
 */
export function deliveryTo(
  name: string,
  config: DestinationConfig,
  alert: HealthAlert,
  context: { route?: RouteRef | undefined; consoleUrl?: string | undefined; now: Date },
): Delivery {
  const base = { destination: name, type: config.type, url: config.url };
  if (config.type === 'slack')
    return { ...base, headers: json, body: JSON.stringify(slackMessage(alert)) };
  if (config.type === 'teams')
    return { ...base, headers: json, body: JSON.stringify(teamsMessage(alert)) };
  if (config.type === 'pagerduty') {
    const links = consoleLinks(alert, context.consoleUrl);
    const event = pagerDutyEvent(alert, config.routingKey, links);
    return { ...base, headers: json, body: JSON.stringify(event) };
  }
  // Standard Webhooks, as the cart webhook verifies them (lib/webhooks): the event id is the
  // message id, so a receiver de-duplicates on it.
  const body = JSON.stringify(context.route ? { ...alert, route: context.route } : alert);
  const timestamp = Math.floor(context.now.getTime() / 1000);
  const signed = webhookHeaders([config.secret], { id: alert.eventId, timestamp, body });
  return { ...base, headers: { ...json, ...signed }, body };
}

/** The requests an alert becomes, one per configured destination, in the secret's order. */
export function deliveries(
  alert: HealthAlert,
  secret: NotifierSecret,
  now: Date,
  route?: RouteRef,
): Delivery[] {
  return [...configuredDestinations(secret)].map(([name, config]) =>
    deliveryTo(name, config, alert, { route, consoleUrl: secret.consoleUrl, now }),
  );
}
