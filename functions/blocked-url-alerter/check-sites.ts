import pLimit from 'p-limit';
import type { Alert, AlertPublisher, StateStore } from '../../lib/aws/index.js';
import {
  CountedDay,
  CountsWindowEnd,
  redact,
  SiteIdentity,
  type SkywatchClient,
} from '../../lib/index.js';
import { detectSpike, fullDays, type SpikeThresholds, type SpikeVerdict } from './detect-spike.js';

export interface SiteRef {
  key: string;
  id: string;
  name: string;
}

export interface CheckOutcome {
  gsm: string;
  sites: number;
  spikes: number;
  alerts: number;
  failed: { site: string; reason: string }[];
}

function spikeAlert(gsm: string, site: SiteRef, v: SpikeVerdict): Alert {
  const ratio = Number.isFinite(v.ratio) ? `${v.ratio.toFixed(1)}x` : 'from zero';
  return {
    kind: 'blocked-url-spike',
    severity: 'high',
    gsm,
    site: site.key,
    subject: `Blocked-URL spike at ${site.name}: ${v.count} on ${v.day} (${ratio} baseline)`,
    summary: `Site ${site.name} (${site.key}) blocked ${v.count} URL actions on ${v.day}, ${ratio} its median of ${v.baseline} over the previous ${v.baselineDays} days.`,
    occurredAt: `${v.day}T00:00:00Z`,
    details: {
      siteId: site.id,
      siteName: site.name,
      ...v,
      ratio: Number.isFinite(v.ratio) ? v.ratio : null,
    },
  };
}

/**
 * Checks every site of a GSM (4.9, the service's default 7-day window) and alerts each spiking
 * site once per day: the alert is claimed by a conditional create before it is published.
 */
export async function checkSites(
  deps: { client: SkywatchClient; state: StateStore; alerts: AlertPublisher },
  gsm: string,
  thresholds: SpikeThresholds,
  concurrency: number,
): Promise<CheckOutcome> {
  const report = await deps.client.sitesUsageReport(gsm);
  const sites: SiteRef[] = [];
  for (const s of report.Sites ?? []) {
    // A site without key or id cannot be asked about; the client counts it (rule `needed`).
    const site = deps.client.needs(s, SiteIdentity, 'UsageReportSites.Sites');
    if (site) sites.push({ key: site.SiteKey, id: site.SiteId, name: s.SiteName || site.SiteKey });
  }
  const outcome: CheckOutcome = { gsm, sites: sites.length, spikes: 0, alerts: 0, failed: [] };
  const limit = pLimit(concurrency);
  await Promise.all(
    sites.map((site) =>
      limit(async () => {
        try {
          const counts = await deps.client.blockedUrlCounts(gsm, site.id);
          const window = deps.client.needs(counts, CountsWindowEnd, 'GetBlockedURLsCountsResponse');
          if (!window) return;
          const days = fullDays(
            (counts.DatedCounts ?? []).flatMap((d) => {
              const day = deps.client.needs(
                d,
                CountedDay,
                'GetBlockedURLsCountsResponse.DatedCounts',
              );
              return day ? [{ date: day.Date, count: day.Count }] : [];
            }),
            window.EndDate,
          );
          const verdict = detectSpike(days, thresholds);
          if (!verdict?.spike) return;
          outcome.spikes++;
          const claim = `blocked-url-alerter/${gsm}/${site.key}/${verdict.day}.json`;
          if (
            !(await deps.state.create(claim, { count: verdict.count, baseline: verdict.baseline }))
          )
            return;
          try {
            await deps.alerts.publish(spikeAlert(gsm, site, verdict));
            outcome.alerts++;
          } catch (error) {
            await deps.state.delete(claim);
            throw error;
          }
        } catch (error) {
          outcome.failed.push({ site: site.key, reason: redact((error as Error).message) });
        }
      }),
    ),
  );
  return outcome;
}
