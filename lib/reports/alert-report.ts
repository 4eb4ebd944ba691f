import type { AlertEventRow } from '../alerts/history.js';
import type { HealthKind } from '../alerts/model.js';

/** Alerts open at one site of one kind. */
export interface OpenAlerts {
  site: string;
  siteName: string;
  kind: HealthKind;
  alerts: number;
}

/** How long a site's alerts took to resolve, in minutes; null when no resolve had its time. */
export interface ResolveTimes {
  site: string;
  siteName: string;
  resolved: number;
  meanMinutes: number | null;
  p90Minutes: number | null;
}

/** The daily page's Alerts section: the alerter's history of the days up to the report day. */
export interface AlertReport {
  /** The report day (YYYY-MM-DD), the last day read. */
  day: string;
  /** The first day read: the history before it is not. */
  firstDay: string;
  /** Open at the end of `day`, by site and kind, most first. */
  open: OpenAlerts[];
  opened: number;
  resolved: number;
  /** Every site with a resolve from `firstDay` to `day`, slowest (p90) first. */
  resolveTimes: ResolveTimes[];
  /** The alerter's trigger and resolve rows read: none means the section has nothing to show. */
  rows: number;
  /** History lines that could not be read (not JSON, or lacking a field): left out. */
  skipped: number;
}

/** Alerts open at the end of the report day, every site and kind. */
export const openTotal = (a: AlertReport): number => a.open.reduce((n, o) => n + o.alerts, 0);

interface Latest {
  seq: number;
  event: AlertEventRow['event'];
  site: string;
  kind: HealthKind;
}

/**
 * The 0.9 quantile with linear interpolation between the two nearest ranks, as the documented
 * p90 query has it (`approx_percentile`, which `npm run query` defines as DuckDB's
 * `quantile_cont`).
 */
export function p90(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (sorted.length - 1) * 0.9;
  const low = Math.floor(rank);
  const below = sorted[low] ?? 0;
  return below + (rank - low) * ((sorted[low + 1] ?? below) - below);
}

/** Minutes from seconds, to a tenth, as the documented queries round them. */
const minutes = (seconds: number | null) =>
  seconds === null ? null : Math.round(seconds / 6) / 10;

/**
 * Counts alert history rows into the Alerts section, in any order, keeping one entry an alert
 * and the resolve times: memory grows with the alerts of the window, not with its rows. Only the
 * alerter's `trigger` and `resolve` rows count, as in the documented queries (docs/operations.md,
 * "Alert history"): `grouped` and `muted` transitions reached no receiver (an outbreak's members
 * are its one alert), and delivery rows are what became of an alert, not alerts.
 *
 * @example
 * const tally = new AlertTally('2026-06-14', '2026-05-16');
 * tally.add('2026-06-14', rows);
 * const section = tally.report();
 */
export class AlertTally {
  private readonly latest = new Map<string, Latest>();
  /** A site's name as its newest row gives it. */
  private readonly names = new Map<string, { at: string; name: string }>();
  private readonly seconds = new Map<string, { resolved: number; values: number[] }>();
  private opened = 0;
  private resolved = 0;
  private rows = 0;
  private skipped = 0;

  constructor(
    readonly day: string,
    readonly firstDay: string,
  ) {}

  /** The rows of one history object of `date`, and how many of its lines were unusable. */
  add(date: string, rows: readonly AlertEventRow[], skipped = 0): void {
    this.skipped += skipped;
    for (const row of rows) {
      if (row.event !== 'trigger' && row.event !== 'resolve') continue;
      this.rows++;
      this.name(row);
      const seen = this.latest.get(row.alertId);
      // Two rows of one transition number that disagree should not be: the resolve wins, so
      // the section never counts an alert open on the strength of a contradiction.
      if (!seen || row.seq > seen.seq || (row.seq === seen.seq && row.event === 'resolve'))
        this.latest.set(row.alertId, {
          seq: row.seq,
          event: row.event,
          site: row.site,
          kind: row.kind,
        });
      if (row.event === 'trigger') {
        if (date === this.day) this.opened++;
        continue;
      }
      if (date === this.day) this.resolved++;
      const site = this.seconds.get(row.site) ?? { resolved: 0, values: [] };
      site.resolved++;
      if (row.resolveSeconds !== null) site.values.push(row.resolveSeconds);
      this.seconds.set(row.site, site);
    }
  }

  /** The section's numbers from what was added. */
  report(): AlertReport {
    const open = new Map<string, OpenAlerts>();
    for (const alert of this.latest.values()) {
      if (alert.event !== 'trigger') continue;
      const key = `${alert.site}\n${alert.kind}`;
      const entry = open.get(key) ?? { ...this.site(alert.site), kind: alert.kind, alerts: 0 };
      entry.alerts++;
      open.set(key, entry);
    }
    const resolveTimes = [...this.seconds].map(([site, { resolved, values }]) => ({
      ...this.site(site),
      resolved,
      meanMinutes: minutes(
        values.length ? values.reduce((sum, v) => sum + v, 0) / values.length : null,
      ),
      p90Minutes: minutes(p90(values)),
    }));
    return {
      day: this.day,
      firstDay: this.firstDay,
      open: [...open.values()].sort(
        (a, b) =>
          b.alerts - a.alerts ||
          a.siteName.localeCompare(b.siteName) ||
          a.kind.localeCompare(b.kind),
      ),
      opened: this.opened,
      resolved: this.resolved,
      resolveTimes: resolveTimes.sort(
        (a, b) => (b.p90Minutes ?? -1) - (a.p90Minutes ?? -1) || a.site.localeCompare(b.site),
      ),
      rows: this.rows,
      skipped: this.skipped,
    };
  }

  private name(row: AlertEventRow): void {
    const known = this.names.get(row.site);
    if (row.siteName && (!known || row.at > known.at))
      this.names.set(row.site, { at: row.at, name: row.siteName });
  }

  private site(site: string) {
    return { site, siteName: this.names.get(site)?.name ?? site };
  }
}
