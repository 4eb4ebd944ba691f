import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretStore, SecretTokenSource } from '../../lib/aws/index.js';
import { daysFrom, SkywatchClient } from '../../lib/index.js';
import { type ArchiveDatabase, openArchive } from '../../scripts/query/archive-database.js';
import { type ArchivedProduct, startArchivedProduct } from '../support/archived-product.js';

/** The GSM the docs' examples name; the test puts the emulator's in its place. */
const DOC_GSM = 'W9YT-G4ZI-JT0Z-ERPO-3ZZI';

/** Every statement of the `sql` blocks of the Athena section of docs/operations.md. */
function documentedQueries(): string[] {
  const doc = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
  const start = doc.indexOf('## Querying the archive with Athena');
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end);
  return [...section.matchAll(/```sql\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] ?? '').split(';'))
    .map((q) => q.trim())
    .filter(Boolean);
}

const queries = documentedQueries();
const tableOf = (sql: string) => /FROM skywatch_archive\.(\w+)/.exec(sql)?.[1] ?? '';

let archived: ArchivedProduct;
let db: ArchiveDatabase;
let client: SkywatchClient;
beforeAll(async () => {
  archived = await startArchivedProduct();
  db = await openArchive(archived.folder);
  const { product } = archived;
  client = new SkywatchClient({
    baseUrl: product.emulator.baseUrl,
    auth: new SecretTokenSource(
      new SecretStore(product.aws.clients.secrets),
      product.res.tokenSecretArn,
    ),
  });
}, 120_000);
afterAll(async () => {
  db?.close();
  await archived?.product.close();
  if (archived) await rm(archived.folder, { recursive: true, force: true });
});

const run = (table: string) => {
  const sql = queries.find((q) => tableOf(q) === table);
  if (!sql) throw new Error(`docs/operations.md has no query of ${table}`);
  return db.query(sql.replaceAll(DOC_GSM, archived.product.gsm));
};

describe('Docs: the Athena queries of docs/operations.md, on DuckDB', () => {
  it('documents a query of every table, and nothing else', () => {
    expect(queries.map(tableOf).sort()).toEqual(
      ['agent_status', 'dnsp_status', 'dnsp_usage', 'gsm_usage', 'site_usage'].sort(),
    );
  });

  it('agent_status: finds exactly the endpoints infected before the snapshot', async () => {
    const rows = await run('agent_status');
    expect(rows).toHaveLength(archived.infected.length);
    for (const row of rows) {
      expect(row.latestthreat).toBe('Trojan|Win32|Docs');
      expect(Number(row.activethreats)).toBeGreaterThan(0);
    }
  });

  it('dnsp_status: counts every DNS agent of the snapshot once', async () => {
    const rows = await run('dnsp_status');
    const total = rows.reduce((n, r) => n + Number(r.agents), 0);
    const [listed] = await db.query(
      `SELECT count(*) AS n FROM skywatch_archive.dnsp_status WHERE "date" = '2026-06-14'`,
    );
    expect(total).toBeGreaterThan(0);
    expect(total).toBe(Number(listed?.n));
    expect(new Set(rows.map((r) => r.dnsagentstatus)).size).toBe(rows.length);
  });

  it('gsm_usage: gives the service GSM report of each archived day, in order', async () => {
    const rows = await run('gsm_usage');
    const days = daysFrom('2026-06-05', '2026-06-14');
    expect(rows.map((r) => r.date)).toEqual(days);
    for (const [i, day] of days.entries()) {
      const report = await client.gsmUsageReport(archived.product.gsm, {
        reportType: 'ActiveEndpoints',
        effectiveDate: day,
      });
      expect(Number(rows[i]?.totalendpointswithouttrial)).toBe(
        report.GSM?.TotalEndpointsWithoutTrial,
      );
      expect(Number(rows[i]?.totaltrialendpoints)).toBe(report.GSM?.TotalTrialEndpoints);
    }
  });

  it('site_usage: gives every site of every day, newest day and largest site first', async () => {
    const rows = await run('site_usage');
    const newest = await client.sitesUsageReport(archived.product.gsm, {
      reportType: 'EndpointsSeenInLast30Days',
      effectiveDate: '2026-06-14',
    });
    const expected = (newest.Sites ?? []).map((s) => [s.SiteName, s.TotalEndpoints]);
    const first = rows
      .filter((r) => r.date === '2026-06-14')
      .map((r) => [r.sitename, Number(r.totalendpoints)] as [string, number]);
    const byName = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
    expect([...first].sort(byName)).toEqual([...expected].sort(byName));
    for (const [i, [, count]] of first.entries())
      if (i > 0) expect(count).toBeLessThanOrEqual(first[i - 1]?.[1] ?? 0);
    expect(rows).toHaveLength(10 * (newest.Sites ?? []).length);
    expect(rows[0]?.date).toBe('2026-06-14');
    expect(rows.at(-1)?.date).toBe('2026-06-05');
  });

  it('dnsp_usage: gives each site report of the day with its agents', async () => {
    const rows = await run('dnsp_usage');
    const sites = archived.product.emulator.info().gsms[0]?.sites ?? [];
    expect(rows).toHaveLength(sites.length);
    for (const site of sites) {
      const report = await client.siteDnspUsageReport(archived.product.gsm, site.key, {
        reportType: 'DevicesSeenInLast30Days',
        effectiveDate: '2026-06-14',
      });
      const row = rows.find((r) => r.site === site.name);
      expect(Number(row?.agents)).toBe(report.Sites?.[0]?.TotalDNSPAgents);
    }
  });
});
