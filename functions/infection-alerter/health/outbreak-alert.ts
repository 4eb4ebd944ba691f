import { alertId, type HealthAlert, type HealthKind } from '../../../lib/alerts/index.js';
import { type EvaluationContext, type Observation, whoAndWhere } from './kinds.js';

/** Endpoints an outbreak's alert names; the rest are counted. */
export const LISTED = 20;

/**
 * The id of a site's outbreak of a kind. It cannot equal a site kind's `<kind>/site/<KC>`: the
 * kinds differ (outbreaks are of endpoint kinds), and it has a segment more; nor an endpoint's
 * `<kind>/<MachineID>`, a MachineID having no `/`.
 *
 * @example
 * outbreakId('infected', 'ABCD-EFGH') // 'infected/site/ABCD-EFGH/outbreak'
 */
export const outbreakId = (kind: HealthKind, site: string) => `${alertId(kind, { site })}/outbreak`;

const PHRASE: Record<HealthKind, string> = {
  infected: 'infected',
  'protection-off': 'with protection off',
  offline: 'not seen',
  uninstalled: 'without the agent',
  'other-antivirus': 'running another antivirus',
  'attention-required': 'needing attention',
  'licence-expiring': 'with a licence expiring',
  'licence-expired': 'with an expired licence',
};

/** The first names, and how many more there are. */
export function listed(names: readonly string[]): string {
  const shown = names.slice(0, LISTED).join(', ');
  return names.length > LISTED ? `${shown}, and ${names.length - LISTED} more` : shown;
}

/** How an outbreak's alert names an endpoint: `HOST (MachineID)`, or the MachineID alone. */
export function memberName(alert: Pick<HealthAlert, 'hostName' | 'machineId'>): string {
  const id = alert.machineId ?? '?';
  return alert.hostName ? `${alert.hostName} (${id})` : id;
}

/**
 * What an outbreak says, as the observation its transition is recorded from: a site's alert of
 * the endpoints' kind and severity, naming no endpoint of its own, listing its members.
 */
export function outbreakObservation(
  ctx: EvaluationContext,
  site: string,
  kind: HealthKind,
  active: boolean,
  names: readonly string[],
): Observation {
  const where = ctx.names.siteName(site) ?? site;
  const n = names.length;
  const what = `${n} endpoint${n === 1 ? '' : 's'} ${PHRASE[kind]}`;
  return {
    kind,
    active,
    alert: {
      // The site's alert fields, under an id of the outbreak's own.
      ...whoAndWhere(ctx, kind, site, { machineId: null, hostName: null }),
      id: outbreakId(kind, site),
      title: `Outbreak: ${what} at ${where}`,
      summary: active
        ? `Outbreak at site ${where} (${site}): ${what} at once. This alert stands for them all and resolves when the last one clears; their own alerts are held.`
        : `Outbreak at site ${where} (${site}) is over: the last of its ${what} has cleared.`,
      occurredAt: new Date(ctx.now).toISOString(),
      facts: { endpoints: n, hosts: listed(names) },
    },
  };
}
