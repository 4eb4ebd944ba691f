import type { AlertEventRow } from '../../lib/alerts/index.js';
import type { AlertReport } from '../../lib/reports/alert-report.js';
import { addDays } from '../../lib/validation/day.js';

export interface Transition {
  /** The alert's id, `kind/MachineID` or `kind/site/KC`. */
  alert: string;
  seq: number;
  event: AlertEventRow['event'];
  at: string;
  gsm?: string;
  site?: string;
  siteName?: string | null;
  /** On a resolve: seconds since the trigger. */
  seconds?: number | null;
}

/**
 * One history row as the alerter writes it (lib/alerts/history.ts), from what a test cares
 * about: the alert, its transition number, the event and when. The kind is the id's first part.
 */
export function historyRow(t: Transition): AlertEventRow {
  const kind = t.alert.slice(0, t.alert.indexOf('/')) as AlertEventRow['kind'];
  // An alert's transitions alternate from a trigger (seq 1): even ones are resolves.
  const resolve = t.event === 'resolve' || (t.seq % 2 === 0 && t.event !== 'trigger');
  const seconds = t.event !== 'resolve' ? null : t.seconds === undefined ? 60 : t.seconds;
  return {
    at: t.at,
    event: t.event,
    gsm: t.gsm ?? 'AAAA-BBBB-CCCC-DDDD-EEEE',
    site: t.site ?? 'SITE-A',
    siteName: t.siteName === undefined ? `Name of ${t.site ?? 'SITE-A'}` : t.siteName,
    machineId: t.alert.split('/')[1] ?? null,
    hostName: null,
    alertId: t.alert,
    eventId: `${t.alert}#${t.seq}`,
    seq: t.seq,
    action: resolve ? 'resolve' : 'trigger',
    kind,
    severity: 'high',
    route: 'default',
    destination: null,
    status: null,
    openedAt: new Date(Date.parse(t.at) - (seconds ?? 0) * 1000).toISOString(),
    resolveSeconds: seconds,
  };
}

/**
 * An Alerts section (lib/reports/alert-report.ts) of the 30 days to `day` with alerts open and
 * resolved at every one of `sites`: wider than the page shows, so its own limits decide.
 */
export function alertReportAt(
  sites: readonly { key: string; name: string }[],
  day: string,
): AlertReport {
  return {
    day,
    firstDay: addDays(day, -29),
    open: sites.map((s, i) => ({
      site: s.key,
      siteName: s.name,
      kind: 'offline',
      alerts: 1 + (i % 3),
    })),
    opened: sites.length,
    resolved: sites.length,
    resolveTimes: sites.map((s, i) => ({
      site: s.key,
      siteName: s.name,
      resolved: 1 + (i % 9),
      meanMinutes: 10 + (i % 50),
      p90Minutes: 30 + (i % 90),
    })),
    rows: 2 * sites.length,
    skipped: 0,
  };
}
