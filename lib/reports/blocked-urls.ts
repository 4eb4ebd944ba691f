import pLimit from 'p-limit';
import type { SkywatchClient } from '../client/index.js';
import { redact } from '../errors/index.js';
import { CountedDay } from '../schemas/needs.js';
import { addDays, daysUpTo } from '../validation/day.js';

export interface BlockedUrlSite {
  key: string;
  id: string;
}

export interface BlockedUrlTotals {
  /** Blocked-URL actions of the week up to the day, by site key. */
  bySite: Map<string, number>;
  /** Sites whose counts could not be read, with the reason; the page shows them as unknown. */
  failed: { site: string; reason: string }[];
}

/**
 * Blocked-URL actions of each site in the 7 days up to `day` (4.9). The archive does not hold
 * these counts, so they come from the service; a site that fails is left out (unknown), not
 * counted as zero.
 *
 * @example
 * const { bySite } = await blockedUrlTotals(client, gsm, sites, '2026-06-14');
 */
export async function blockedUrlTotals(
  client: Pick<SkywatchClient, 'blockedUrlCounts' | 'needs'>,
  gsm: string,
  sites: readonly BlockedUrlSite[],
  day: string,
  concurrency = 8,
): Promise<BlockedUrlTotals> {
  const week = daysUpTo(day, 7);
  const first = week[0] ?? day;
  const end = addDays(day, 1);
  const limit = pLimit(concurrency);
  const out: BlockedUrlTotals = { bySite: new Map(), failed: [] };
  await Promise.all(
    sites.map((site) =>
      limit(async () => {
        try {
          const counts = await client.blockedUrlCounts(gsm, site.id, {
            startDate: first,
            endDate: end,
          });
          // A day the service wrote without a usable date or count is skipped (and counted by
          // the client as a surprise), never a lost site.
          const days = (counts.DatedCounts ?? []).flatMap((d) => {
            const counted = client.needs(d, CountedDay, 'GetBlockedURLsCountsResponse.DatedCounts');
            return counted ? [counted] : [];
          });
          const total = days
            .filter((d) => week.includes(d.Date.slice(0, 10)))
            .reduce((n, d) => n + d.Count, 0);
          out.bySite.set(site.key, total);
        } catch (error) {
          out.failed.push({ site: site.key, reason: redact((error as Error).message) });
        }
      }),
    ),
  );
  return out;
}
