import { FUNCTION_OPERATIONS, type OperationMethod, type SkywatchClient } from '../../lib/index.js';
import { explain } from './explain.js';
import type { CheckRow } from './report.js';

/** Operations that change the service's data: the check never calls them. */
const WRITES: readonly OperationMethod[] = ['addCartCustomers'];

/** Every operation some function calls, once each, in the table's order. */
function operationsInUse(): OperationMethod[] {
  const all = Object.values(FUNCTION_OPERATIONS).flat() as OperationMethod[];
  return [...new Set(all)];
}

/**
 * One page (or one report) of each operation the functions call, for the first GSM key. Site
 * operations take the first site of the GSM's site report.
 */
export async function probeOperations(
  client: SkywatchClient,
  gsmKeys: readonly string[],
): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  const gsm = gsmKeys[0];
  let site: { key: string; id: string } | undefined;
  const calls: Record<OperationMethod, (() => Promise<string>) | undefined> = {
    gsmUsageReport: async () => {
      await client.gsmUsageReport(gsm ?? '');
      return 'report read';
    },
    sitesUsageReport: async () => {
      const report = await client.sitesUsageReport(gsm ?? '');
      const sites = report.Sites ?? [];
      const first = sites[0];
      if (first?.SiteKey && first.SiteId) site = { key: first.SiteKey, id: first.SiteId };
      return `${sites.length} site(s)`;
    },
    gsmAgentStatus: async () => {
      const page = await client.gsmAgentStatus(gsm ?? '', { batchSize: 5 }).firstPage();
      return `${page.entries.length} endpoint(s) on the first page`;
    },
    gsmDnspStatus: async () => {
      const page = await client.gsmDnspStatus(gsm ?? '', { batchSize: 5 }).firstPage();
      return `${page.entries.length} endpoint(s) on the first page`;
    },
    siteDnspUsageReport: async () => {
      if (!site) return 'no site to ask about';
      await client.siteDnspUsageReport(gsm ?? '', site.key);
      return 'report read';
    },
    blockedUrlCounts: async () => {
      if (!site) return 'no site to ask about';
      const counts = await client.blockedUrlCounts(gsm ?? '', site.id);
      return `${(counts.DatedCounts ?? []).length} day(s) of counts`;
    },
    siteAgentStatus: undefined,
    siteDnspStatus: undefined,
    siteUsageReport: undefined,
    addCartCustomers: undefined,
  };
  for (const op of operationsInUse()) {
    const check = `operation ${op}`;
    const call = calls[op];
    if (WRITES.includes(op) || !call) {
      rows.push({ check, verdict: 'skip', detail: 'changes data: not called by the check' });
      continue;
    }
    if (!gsm) {
      rows.push({
        check,
        verdict: 'warn',
        detail: 'not tried: no GSM key',
        fix: 'set GSM_KEYS (as the functions have it) to try the operations',
      });
      continue;
    }
    try {
      rows.push({ check, verdict: 'ok', detail: await call() });
    } catch (error) {
      rows.push({ check, verdict: 'fail', ...explain(error, 'service') });
    }
  }
  return rows;
}
