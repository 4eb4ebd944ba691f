import * as z from '../zod.js';

/**
 * Endpoint-health alerts with a lifecycle: each has a stable id, a `trigger` when its condition
 * starts and a `resolve` when it clears (docs/operations.md, "Health alerts").
 */
export const HEALTH_KINDS = [
  'infected',
  'protection-off',
  'offline',
  'licence-expiring',
  'licence-expired',
  'uninstalled',
  'other-antivirus',
  'attention-required',
] as const;
export const HealthKind = z.enum(HEALTH_KINDS);
export type HealthKind = z.infer<typeof HealthKind>;

/**
 * What a person reads of each kind: the title an alert and the daily page show, and how an
 * alert's resolve says it cleared.
 */
export const KIND_TEXT: Readonly<Record<HealthKind, { title: string; cleared: string }>> = {
  infected: { title: 'Infected', cleared: 'no longer reports a threat' },
  'protection-off': { title: 'Protection off', cleared: 'has its protection on again' },
  offline: { title: 'Not seen', cleared: 'was seen again' },
  'licence-expiring': { title: 'Licence expiring', cleared: 'licence is no longer expiring' },
  'licence-expired': { title: 'Licence expired', cleared: 'licence is valid again' },
  uninstalled: { title: 'Agent uninstalled', cleared: 'has the agent installed again' },
  'other-antivirus': {
    title: 'Another antivirus active',
    cleared: 'no longer runs another antivirus',
  },
  'attention-required': { title: 'Attention required', cleared: 'no longer needs attention' },
};

/** Kinds about a whole site (the licence is the site keycode's); the others are per endpoint. */
export const SITE_KINDS: readonly HealthKind[] = ['licence-expiring', 'licence-expired'];

export const Severity = z.enum(['critical', 'high', 'medium', 'low', 'info']);
export type Severity = z.infer<typeof Severity>;

export const AlertAction = z.enum(['trigger', 'resolve']);
export type AlertAction = z.infer<typeof AlertAction>;

/** A fact behind an alert, as a destination shows it (threat, last seen, days remaining...). */
export const FactValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One lifecycle event of one alert: what the notifier receives and every destination shows. */
export const HealthAlert = z.object({
  schema: z.literal('skywatch.alert/v2'),
  /** Stable across the alert's life: `kind/MachineID` or `kind/site/KC`. */
  id: z.string().check(z.minLength(1), z.maxLength(255)),
  /** Unique per event: `id#n`, n counting the alert's transitions; receivers de-duplicate on it. */
  eventId: z.string().check(z.minLength(1)),
  action: AlertAction,
  kind: HealthKind,
  severity: Severity,
  gsm: z.string(),
  /** GSMConsoleName (2.4); null when the usage report could not be read. */
  consoleName: z.nullable(z.string()),
  site: z.string(),
  /** SiteName (2.5); null when unknown. */
  siteName: z.nullable(z.string()),
  hostName: z.nullable(z.string()),
  machineId: z.nullable(z.string()),
  title: z.string(),
  summary: z.string(),
  /** When this event was observed (the entry's LastChanged, or the check's time). */
  occurredAt: z.string(),
  /** When the alert's current trigger happened. */
  openedAt: z.string(),
  facts: z.record(z.string(), FactValue),
  /**
   * True on a test alert only (functions/alert-notifier/test-alert.ts, id `test/<time>`):
   * nothing is wrong. A flag rather than a kind, so no real kind's routing has to know it.
   */
  test: z.optional(z.boolean()),
});
export type HealthAlert = z.infer<typeof HealthAlert>;

/**
 * The stable id of an alert: one per kind and endpoint, or per kind and site.
 *
 * @example
 * alertId('offline', { machineId: 'A1B2' }) // 'offline/A1B2'
 */
export function alertId(kind: HealthKind, subject: { machineId: string } | { site: string }) {
  return 'machineId' in subject ? `${kind}/${subject.machineId}` : `${kind}/site/${subject.site}`;
}
