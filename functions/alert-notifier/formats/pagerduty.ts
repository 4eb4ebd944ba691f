import type { HealthAlert, Severity } from '../../../lib/alerts/index.js';

/** PagerDuty's four severities. */
const SEVERITY: Record<Severity, 'critical' | 'error' | 'warning' | 'info'> = {
  critical: 'critical',
  high: 'error',
  medium: 'warning',
  low: 'info',
  info: 'info',
};

/**
 * What PagerDuty shows as the affected system. It refuses a blank `source` (400, which no retry
 * mends), and an endpoint may have no host name, a site no name: the first that is not blank.
 */
function sourceOf(alert: HealthAlert): string {
  const names = [alert.hostName, alert.siteName, alert.site, alert.consoleName, alert.gsm];
  return names.map((name) => name?.trim()).find((name) => name) ?? alert.id;
}

/** A link PagerDuty shows on the incident (Events API v2 `links`). */
export interface EventLink {
  href: string;
  text: string;
}

/**
 * PagerDuty Events API v2 event: the alert id is the dedup_key, so the resolve closes the
 * incident the trigger opened. A resolve needs no payload. `links` go on the incident (the
 * service's console for the endpoint, when the operator configured its address).
 */
export function pagerDutyEvent(alert: HealthAlert, routingKey: string, links: EventLink[] = []) {
  if (alert.action === 'resolve')
    return { routing_key: routingKey, event_action: 'resolve', dedup_key: alert.id };
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: alert.id,
    ...(links.length > 0 ? { links } : {}),
    payload: {
      summary: alert.title.slice(0, 1024),
      source: sourceOf(alert),
      severity: SEVERITY[alert.severity],
      timestamp: alert.occurredAt,
      component: alert.machineId ?? alert.site,
      group: `${alert.consoleName ?? alert.gsm} / ${alert.siteName ?? alert.site}`,
      class: alert.kind,
      custom_details: {
        summary: alert.summary,
        consoleName: alert.consoleName,
        gsm: alert.gsm,
        site: alert.site,
        siteName: alert.siteName,
        hostName: alert.hostName,
        machineId: alert.machineId,
        ...alert.facts,
      },
    },
  };
}
