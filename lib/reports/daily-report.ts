import { DAY_MS, startOfDay } from '../validation/day.js';
import type { AlertReport } from './alert-report.js';

/** One site as the daily page shows it. */
export interface SiteRow {
  key: string;
  id: string;
  name: string;
  /** `Full` or `Trial`, as the sites report gives it. */
  licenseType: string;
  /** The site's licence expiry, normalised (UTC, `Z`); null when the service gave none. */
  expiryDate: string | null;
  /** Active endpoints on the report day (the `ActiveEndpoints` sites report). */
  endpoints: number;
  dnspEnabled: boolean;
  /** DNS protection agents on the report day (4.8). */
  dnspAgents: number;
  /** Endpoints infected in the newest status snapshot. */
  infected: number;
  /** Blocked-URL actions in the week up to the report day, when they could be read. */
  blockedUrls: number | null;
}

/** One day of the 30-day trends; null where the archive has no report for the day. */
export interface TrendDay {
  date: string;
  activeEndpoints: number | null;
  infected: number | null;
  /** Endpoints infected in this snapshot and not in the previous day's. */
  newInfections: number | null;
  /** Endpoints infected in the previous day's snapshot and not in this one. */
  cleaned: number | null;
}

/** Everything the daily page shows for one GSM and report day. */
export interface DailyReport {
  gsm: string;
  gsmName: string;
  /** GSM licence expiry, ISO 8601, when the GSM report gives one. */
  gsmExpiry: string | null;
  /** The report day (YYYY-MM-DD). */
  day: string;
  /** Day of the newest status snapshot used, or null when there is none. */
  snapshotDate: string | null;
  generatedAt: string;
  sites: SiteRow[];
  /** Active endpoints by report day, the 30 days up to `day`. */
  endpointTrend: TrendDay[];
  /** Infections and cleanups by snapshot day, the 30 days up to `snapshotDate`. */
  infectionTrend: TrendDay[];
  /** A licence expiring within this many days of the report day is listed. */
  expiryWindowDays: number;
  /** The alert history of the trend's days, as of the end of the report day. */
  alerts: AlertReport;
}

/**
 * Whole days from `day` (YYYY-MM-DD) to a normalised instant (UTC, `Z`), negative when already
 * past; NaN without one.
 */
export function daysUntil(day: string, instant: string | null): number {
  if (instant === null) return Number.NaN;
  return Math.floor((Date.parse(instant) - startOfDay(day)) / DAY_MS);
}
