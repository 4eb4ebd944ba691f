import type { SkywatchClient } from '../../../lib/index.js';
import type { Names } from './kinds.js';

/** Names change rarely: read once an hour per container, not on every run. */
const TTL_MS = 3_600_000;
const cache = new Map<string, { names: Names; until: number }>();

/**
 * The console name (GSM usage report, 2.4) and site names (site usage report, 2.5) that alerts
 * show. When a report cannot be read the alert still goes out, naming keycodes instead, and the
 * failure is reported to `onError`.
 */
export async function loadNames(
  client: SkywatchClient,
  gsm: string,
  now: number,
  onError: (error: unknown) => void,
): Promise<Names> {
  const hit = cache.get(gsm);
  if (hit && hit.until > now) return hit.names;
  let consoleName: string | null = null;
  const sites = new Map<string, string>();
  let complete = true;
  try {
    consoleName = (await client.gsmUsageReport(gsm)).GSM?.GSMConsoleName ?? null;
  } catch (error) {
    complete = false;
    onError(error);
  }
  try {
    // A site the service wrote without its key or name is left unnamed, not a failed run.
    for (const s of (await client.sitesUsageReport(gsm)).Sites ?? [])
      if (s.SiteKey && s.SiteName) sites.set(s.SiteKey, s.SiteName);
  } catch (error) {
    complete = false;
    onError(error);
  }
  const names: Names = { consoleName, siteName: (site) => sites.get(site) ?? null };
  // A partial answer is used now but asked for again next run.
  if (complete) cache.set(gsm, { names, until: now + TTL_MS });
  return names;
}
