import * as z from '../zod.js';
import { type HealthAlert, HealthKind, Severity } from './model.js';

/**
 * What happened to an alert event (docs/operations.md, "Alert history"). The alerter records
 * `trigger` and `resolve` (sent), `grouped` (an outbreak member's transition, recorded under its
 * site's outbreak alert, not sent) and `muted` (recorded, not sent, for any other reason); the
 * notifier records each destination's answer: `delivered`, `refused` (kept in the dead-letter
 * queue), `failed` (retried later) or `not-configured`.
 */
export const ALERT_EVENT_KINDS = [
  'trigger',
  'resolve',
  'grouped',
  'muted',
  'delivered',
  'refused',
  'failed',
  'not-configured',
] as const;
export const AlertEventKind = z.enum(ALERT_EVENT_KINDS);
export type AlertEventKind = z.infer<typeof AlertEventKind>;

/**
 * One line of the alert history: flat, so Athena and DuckDB read every field as a column
 * (`alert_events`). `action` and `seq` are kept beside `event` because a `grouped` row may be
 * a member's trigger or its resolve, and `seq` orders an alert's events where `at` ties (a
 * trigger and its resolve drained in one run).
 */
export const AlertEventRow = z.object({
  /** When the alerter recorded it or the notifier had the destination's answer (ISO 8601). */
  at: z.string(),
  event: AlertEventKind,
  gsm: z.string(),
  site: z.string(),
  siteName: z.nullable(z.string()),
  machineId: z.nullable(z.string()),
  hostName: z.nullable(z.string()),
  alertId: z.string(),
  eventId: z.string(),
  /** The transition number of the alert (`eventId` is `alertId#seq`). */
  seq: z.int(),
  action: z.enum(['trigger', 'resolve']),
  kind: HealthKind,
  severity: Severity,
  /** The route the event took (lib/alerts/routing.ts); null when it was not routed. */
  route: z.nullable(z.string()),
  /** Delivery rows: the destination's name; null on the alerter's rows. */
  destination: z.nullable(z.string()),
  /** Delivery rows: the destination's HTTP status, when it answered. */
  status: z.nullable(z.int()),
  openedAt: z.string(),
  /** On a resolve: seconds from the trigger (`openedAt`) to the resolve being observed. */
  resolveSeconds: z.nullable(z.int()),
});
export type AlertEventRow = z.infer<typeof AlertEventRow>;

export interface AlertEventFacts {
  at: number;
  event: AlertEventKind;
  route?: string | undefined;
  destination?: string | undefined;
  status?: number | undefined;
}

/**
 * The history row of an alert event.
 *
 * @example
 * alertEventRow(alert, { at: Date.now(), event: 'delivered', destination: 'slack', status: 200 });
 */
export function alertEventRow(alert: HealthAlert, facts: AlertEventFacts): AlertEventRow {
  const seq = Number(alert.eventId.slice(alert.eventId.lastIndexOf('#') + 1));
  const open = Date.parse(alert.openedAt);
  const seconds = Math.round((Date.parse(alert.occurredAt) - open) / 1000);
  return {
    at: new Date(facts.at).toISOString(),
    event: facts.event,
    gsm: alert.gsm,
    site: alert.site,
    siteName: alert.siteName,
    machineId: alert.machineId,
    hostName: alert.hostName,
    alertId: alert.id,
    eventId: alert.eventId,
    // A test alert's id has no `#n`: 0 says it is no transition.
    seq: Number.isSafeInteger(seq) ? seq : 0,
    action: alert.action,
    kind: alert.kind,
    severity: alert.severity,
    route: facts.route ?? null,
    destination: facts.destination ?? null,
    status: facts.status ?? null,
    openedAt: alert.openedAt,
    // A clock skew between the trigger's and the resolve's observations never goes below 0.
    resolveSeconds:
      alert.action === 'resolve' && Number.isFinite(seconds) ? Math.max(0, seconds) : null,
  };
}
