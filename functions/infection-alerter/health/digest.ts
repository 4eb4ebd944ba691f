import type { HealthKind } from '../../../lib/alerts/index.js';
import type { StateStore } from '../../../lib/aws/index.js';
import { DAY_MS } from '../../../lib/index.js';
import type { PageLinker } from '../../../lib/links/page-links.js';
import { latestPageKey, objectLocation } from '../../../lib/reports/page-keys.js';
import type { Names } from './kinds.js';
import { OUTBREAK, SubjectRecord, subjectsPrefix } from './records.js';

/** A GSM's health alerts at a glance: what is open, by kind and site, and the day's changes. */
export interface Digest {
  gsm: string;
  consoleName: string | null;
  at: string;
  open: number;
  openByKind: Partial<Record<HealthKind, number>>;
  openBySite: {
    site: string;
    siteName: string | null;
    kinds: Partial<Record<HealthKind, number>>;
  }[];
  /** Triggered, and resolved, in the 24 hours before `at`. */
  openedToday: Partial<Record<HealthKind, number>>;
  resolvedToday: Partial<Record<HealthKind, number>>;
  /**
   * The GSM's newest daily report page, which the report builder keeps at a stable key: named
   * by its S3 location, so the alerter needs no read on `pages/`, and, when the report site is
   * on, by a signed link that opens it in any browser until `expiresAt`.
   */
  report: { s3Uri: string; consoleUrl: string; url?: string; expiresAt?: string } | null;
}

/** Where the GSM's latest daily page is (null when the GSM cannot name a key: no page then). */
export function latestReport(bucket: string, gsm: string): Digest['report'] {
  try {
    return objectLocation(bucket, latestPageKey(gsm));
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

const bump = (m: Partial<Record<HealthKind, number>>, kind: HealthKind) => {
  m[kind] = (m[kind] ?? 0) + 1;
};

/**
 * Reads every subject record of the GSM (once a day, with the full check). The site of an
 * endpoint record is not kept in it, so open endpoint alerts are counted under the site
 * `siteOf` knows from the day's walk. An outbreak's record is skipped: its endpoints' own
 * records count each of them.
 */
export async function buildDigest(
  state: StateStore,
  gsm: string,
  names: Names,
  siteOf: (subject: string) => string | undefined,
  now: number,
  reportBucket?: string,
  links?: PageLinker,
): Promise<Digest> {
  const since = now - DAY_MS;
  const digest: Digest = {
    gsm,
    consoleName: names.consoleName,
    at: new Date(now).toISOString(),
    open: 0,
    openByKind: {},
    openBySite: [],
    openedToday: {},
    resolvedToday: {},
    report: reportBucket ? latestReport(reportBucket, gsm) : null,
  };
  const link = digest.report && links ? await links(latestPageKey(gsm)) : undefined;
  if (digest.report && link) digest.report = { ...digest.report, ...link };
  const bySite = new Map<string, Partial<Record<HealthKind, number>>>();
  const prefix = subjectsPrefix(gsm);
  for await (const { key, etag } of state.list(prefix)) {
    const subject = decodeURIComponent(key.slice(prefix.length, -'.json'.length));
    if (subject.startsWith(OUTBREAK)) continue;
    const record = await state.getListed(key, etag, SubjectRecord);
    if (!record) continue;
    const site = subject.startsWith('site:') ? subject.slice(5) : (siteOf(subject) ?? '(unknown)');
    for (const [kind, s] of Object.entries(record.value.alerts) as [
      HealthKind,
      typeof record.value.alerts.infected,
    ][]) {
      if (!s) continue;
      const changed = s.changedAt ? Date.parse(s.changedAt) : Number.NaN;
      if (s.open) {
        digest.open++;
        bump(digest.openByKind, kind);
        const kinds = bySite.get(site) ?? {};
        bump(kinds, kind);
        bySite.set(site, kinds);
        if (changed >= since) bump(digest.openedToday, kind);
      } else if (changed >= since) bump(digest.resolvedToday, kind);
    }
  }
  digest.openBySite = [...bySite]
    .map(([site, kinds]) => ({ site, siteName: names.siteName(site), kinds }))
    .sort((a, b) => (a.siteName ?? a.site).localeCompare(b.siteName ?? b.site));
  return digest;
}

const list = (m: Partial<Record<HealthKind, number>>) =>
  Object.entries(m)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || 'none';

/** A link anyone can open when the report site is on; else the page in the S3 console. */
function reportLine(r: NonNullable<Digest['report']>): string {
  if (r.url && r.expiresAt)
    return `Daily report: <${r.url}|open the latest daily page> (link valid until ${r.expiresAt.slice(0, 10)})`;
  return `Daily report: <${r.consoleUrl}|${r.s3Uri}>`;
}

/** The digest as AWS Chatbot's custom notification (rendered by Chatbot, read in e-mail). */
export function digestMessage(d: Digest) {
  const lines = [
    `Open alerts: ${d.open} (${list(d.openByKind)})`,
    `Opened in the last 24 hours: ${list(d.openedToday)}`,
    `Resolved in the last 24 hours: ${list(d.resolvedToday)}`,
    ...d.openBySite.map((s) => `${s.siteName ?? s.site} (${s.site}): ${list(s.kinds)}`),
    ...(d.report ? [reportLine(d.report)] : []),
  ];
  return {
    version: '1.0' as const,
    source: 'custom' as const,
    id: `digest/${d.gsm}/${d.at.slice(0, 10)}`,
    content: {
      textType: 'client-markdown' as const,
      title: `:clipboard: Daily health digest: ${d.consoleName ?? d.gsm}`,
      description: lines.join('\n'),
      keywords: ['digest'],
    },
    metadata: {
      // A thread a day: one constant thread made every digest a reply to the first.
      threadId: `digest/${d.gsm}/${d.at.slice(0, 10)}`,
      summary: `Daily health digest: ${d.consoleName ?? d.gsm}`,
      eventType: 'skywatch.digest',
      additionalContext: { skywatchDigest: JSON.stringify(d) },
    },
  };
}
