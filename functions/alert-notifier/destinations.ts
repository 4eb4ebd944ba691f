import type { DestinationName, HealthAlert } from '../../lib/alerts/index.js';
import { registerSecret } from '../../lib/errors/index.js';
import { webhookHeaders } from '../../lib/webhooks/index.js';
import * as z from '../../lib/zod.js';
import { pagerDutyEvent } from './formats/pagerduty.js';
import { slackMessage } from './formats/slack.js';
import { teamsMessage } from './formats/teams.js';

const Url = z.url({ protocol: /^https?$/ });

/**
 * The notifier's secret (Secrets Manager, NOTIFIER_SECRET_ARN): every destination is optional,
 * and only those present are sent to. URLs and keys are secrets: whoever has one can post.
 */
export const NotifierSecret = z.object({
  slack: z.optional(z.object({ url: Url })),
  teams: z.optional(z.object({ url: Url })),
  pagerduty: z.optional(
    z.object({
      routingKey: z.string().check(z.minLength(1)),
      /** The Events API v2 endpoint; another only for a test receiver or a proxy. */
      url: z._default(Url, 'https://events.pagerduty.com/v2/enqueue'),
    }),
  ),
  /**
   * The service console's address for an alert, `{site}`, `{machineId}` and `{gsm}` filled
   * in (URL-encoded), shown as a link where the format has one (PagerDuty's `links`).
   */
  consoleUrl: z.optional(z.string().check(z.regex(/^https:\/\/\S+$/))),
  webhook: z.optional(
    z.object({
      url: Url,
      /** Standard Webhooks signing secret, `whsec_` and base64. */
      secret: z.string().check(z.regex(/^whsec_[A-Za-z0-9+/=]+$/)),
    }),
  ),
});
export type NotifierSecret = z.infer<typeof NotifierSecret>;

/**
 * Registers every URL and key of the secret for redaction (lib/errors), so that none reaches a
 * log line or a dead-letter reason, even when a receiver echoes the request in its answer.
 */
export function protectSecrets(secret: NotifierSecret): NotifierSecret {
  for (const value of [
    secret.slack?.url,
    secret.teams?.url,
    secret.pagerduty?.url,
    secret.pagerduty?.routingKey,
    secret.webhook?.url,
    secret.webhook?.secret,
  ])
    registerSecret(value);
  return secret;
}

export { DestinationName } from '../../lib/alerts/index.js';

/** One HTTP request that delivers an alert to one destination. */
export interface Delivery {
  destination: DestinationName;
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

/** The requests an alert becomes, one per configured destination. */
export function deliveries(alert: HealthAlert, secret: NotifierSecret, now: Date): Delivery[] {
  const out: Delivery[] = [];
  if (secret.slack)
    out.push({
      destination: 'slack',
      url: secret.slack.url,
      headers: json,
      body: JSON.stringify(slackMessage(alert)),
    });
  if (secret.teams)
    out.push({
      destination: 'teams',
      url: secret.teams.url,
      headers: json,
      body: JSON.stringify(teamsMessage(alert)),
    });
  if (secret.pagerduty)
    out.push({
      destination: 'pagerduty',
      url: secret.pagerduty.url,
      headers: json,
      body: JSON.stringify(
        pagerDutyEvent(alert, secret.pagerduty.routingKey, consoleLinks(alert, secret.consoleUrl)),
      ),
    });
  if (secret.webhook) {
    // Standard Webhooks, as the cart webhook verifies them (lib/webhooks): the event id is the
    // message id, so a receiver de-duplicates on it.
    const body = JSON.stringify(alert);
    out.push({
      destination: 'webhook',
      url: secret.webhook.url,
      headers: {
        ...json,
        ...webhookHeaders([secret.webhook.secret], {
          id: alert.eventId,
          timestamp: Math.floor(now.getTime() / 1000),
          body,
        }),
      },
      body,
    });
  }
  return out;
}
