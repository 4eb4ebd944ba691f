import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretStore, SecretTokenSource } from '../../lib/aws/index.js';
import { daysFrom, SkywatchClient } from '../../lib/index.js';
import { type ArchiveDatabase, openArchive } from '../../scripts/query/archive-database.js';
import { AGENT_STATUS_NAMED } from '../../scripts/query/archive-views.js';
import { runQuery } from '../../scripts/query/run-query.js';
import { type ArchivedProduct, startArchivedProduct } from '../support/archived-product.js';

/** The GSM the docs' examples name; the test puts the emulator's in its place. */
const DOC_GSM = 'W9YT-G4ZI-JT0Z-ERPO-3ZZI';

const doc = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');

/** Every statement of the `sql` blocks of the Athena section of docs/operations.md. */
function documentedStatements(): string[] {
  const start = doc.indexOf('## Querying the archive with Athena');
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end);
  return [...section.matchAll(/```sql\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] ?? '').split(';'))
    .map((q) => q.trim())
    .filter(Boolean);
}

const statements = documentedStatements();
const isView = (sql: string) => sql.startsWith('CREATE VIEW');
const queries = statements.filter((q) => !isView(q));
const views = statements.filter(isView);
const tableOf = (sql: string) => /FROM skywatch_archive\.(\w+)/.exec(sql)?.[1] ?? '';

/** Shell words as bash splits them: double quotes (with `\"` and `\\`), single quotes, spaces. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] ?? '';
    if (ch === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (ch === "'") {
      const close = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, close);
      i = close;
    } else if (ch === '"') {
      word ??= '';
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && /["\\$`]/.test(line[i + 1] ?? '')) i++;
        word += line[i];
      }
    } else word = (word ?? '') + ch;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * The `$ npm run query -- …` commands of the `console` blocks that follow a
 * `<!-- query-output` marker, each with the lines the docs show under it.
 */
function documentedOutputs(): { command: string; args: string[]; shown: string }[] {
  const blocks = [...doc.matchAll(/<!-- query-output[^\n]*\n```console\n([\s\S]*?)```/g)];
  return blocks.flatMap((block) =>
    (block[1] ?? '')
      .split(/^(?=\$ )/m)
      .filter((part) => part.startsWith('$ '))
      .map((part) => {
        const [line = '', ...shown] = part.trimEnd().split('\n');
        const words = shellWords(line.slice(2));
        if (words.slice(0, 4).join(' ') !== 'npm run query --') {
          throw new Error(`docs/operations.md: not an npm run query command: ${line}`);
        }
        return { command: line.slice(2), args: words.slice(4), shown: shown.join('\n') };
      }),
  );
}

const outputs = documentedOutputs();

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
  it('documents a query of every table and view, and nothing else', () => {
    expect(queries.map(tableOf).sort()).toEqual(
      [
        'agent_status',
        'agent_status_named',
        'dnsp_status',
        'dnsp_usage',
        'gsm_usage',
        'site_usage',
      ].sort(),
    );
  });

  it('gives Athena users the view npm run query creates, word for word', () => {
    const words = (sql: string) => sql.split(/\s+/).join(' ');
    expect(views.map(words)).toEqual([words(AGENT_STATUS_NAMED)]);
  });

  it('agent_status_named: names the site of each endpoint infected before the snapshot', async () => {
    const rows = await run('agent_status_named');
    const sites = archived.product.emulator.info().gsms[0]?.sites ?? [];
    const infectedAt = sites.slice(0, 2).map((s) => s.name);
    expect(rows).toHaveLength(archived.infected.length);
    expect(new Set(rows.map((r) => r.sitename))).toEqual(new Set(infectedAt));
    expect(rows.map((r) => [r.sitename, r.hostname])).toEqual(
      rows.map((r) => [r.sitename, r.hostname]).sort((a, b) => a.join().localeCompare(b.join())),
    );
  });

  it('agent_status_named: gives every endpoint of every snapshot its own site name', async () => {
    const names = new Map(
      (archived.product.emulator.info().gsms[0]?.sites ?? []).map((s) => [s.key, s.name]),
    );
    const rows = await db.query(
      'SELECT kc, sitename, "date" FROM skywatch_archive.agent_status_named',
    );
    const [{ n } = { n: 0 }] = await db.query(
      'SELECT count(*) AS n FROM skywatch_archive.agent_status',
    );
    expect(rows).toHaveLength(Number(n));
    expect(new Set(rows.map((r) => r.date))).toEqual(new Set(['2026-06-14', '2026-06-16']));
    for (const row of rows) expect(row.sitename).toBe(names.get(String(row.kc)));
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

describe('Docs: what npm run query prints, as docs/operations.md shows it', () => {
  it('shows the output of a table, a CSV, a JSON and two error commands', () => {
    const flags = outputs.map((o) => o.args.filter((a) => a.startsWith('--')).join(' '));
    expect(flags).toEqual(['', '', '--csv', '--json', '', '']);
  });

  it.each(outputs.map((o) => [o.command, o] as const))('$ %s', async (_, { args, shown }) => {
    let printed = '';
    const append = (text: string) => {
      printed += text;
    };
    const status = await runQuery(
      [
        ...args.map((a) => a.replaceAll(DOC_GSM, archived.product.gsm)),
        '--archive',
        archived.folder,
      ],
      { stdout: append, stderr: append },
    );
    expect(printed.trimEnd().replaceAll(archived.product.gsm, DOC_GSM)).toBe(shown);
    expect(status).toBe(shown.startsWith('no ') ? 1 : 0);
  });
});
