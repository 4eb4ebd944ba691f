import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ArchiveDatabase, openArchive } from '../../scripts/query/archive-database.js';
import { MissingColumnError, MissingTableError } from '../../scripts/query/query-errors.js';
import { runQuery } from '../../scripts/query/run-query.js';

/** A hand-made archive: a site renamed between two reports, snapshots around them. */
let root: string;
let db: ArchiveDatabase;

function write(key: string, records: unknown[]) {
  const path = join(root, 'reports', key);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, gzipSync(records.map((r) => JSON.stringify(r)).join('\n')));
}
const site = (SiteKey: string, SiteName: string) => ({
  ReportInfo: { ReportType: 'ActiveEndpoints' },
  Site: { SiteKey, SiteName, TotalEndpoints: 1 },
});
const endpoint = (MachineID: string, KC: string) => ({
  MasterKC: 'G',
  KC,
  MachineID,
  HostName: `host-${MachineID}`,
});

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skywatch-query-'));
  for (const type of ['ActiveEndpoints', 'EndpointsSeenInLast30Days']) {
    write(`site-usage/gsm=G/date=2026-06-10/type=${type}/sites.ndjson.gz`, [site('S1', 'Old')]);
    write(`site-usage/gsm=G/date=2026-06-14/type=${type}/sites.ndjson.gz`, [site('S1', 'New')]);
  }
  for (const day of ['2026-06-11', '2026-06-12', '2026-06-13', '2026-06-20']) {
    write(`agent-status/gsm=G/date=${day}/snapshot.ndjson.gz`, [
      endpoint('m1', 'S1'),
      endpoint('m2', 'S2'),
    ]);
  }
  // Another GSM with the same site key and no site report: its endpoints get no name.
  write('agent-status/gsm=H/date=2026-06-11/snapshot.ndjson.gz', [endpoint('m3', 'S1')]);
  db = await openArchive(root);
});
afterAll(async () => {
  db?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const status = await runQuery([...argv, '--archive', root], {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
  });
  return { status, stdout, stderr };
}

describe('View: skywatch_archive.agent_status_named', () => {
  it('names each endpoint from the report of its GSM nearest its day, the earlier on a tie', async () => {
    const rows = await db.query(
      `SELECT gsm_key, "date", machineid, sitename FROM skywatch_archive.agent_status_named
       ORDER BY gsm_key, "date", machineid`,
    );
    expect(rows.map((r) => [r.gsm_key, r.date, r.machineid, r.sitename])).toEqual([
      ['G', '2026-06-11', 'm1', 'Old'],
      ['G', '2026-06-11', 'm2', null],
      ['G', '2026-06-12', 'm1', 'Old'],
      ['G', '2026-06-12', 'm2', null],
      ['G', '2026-06-13', 'm1', 'New'],
      ['G', '2026-06-13', 'm2', null],
      ['G', '2026-06-20', 'm1', 'New'],
      ['G', '2026-06-20', 'm2', null],
      ['H', '2026-06-11', 'm3', null],
    ]);
  });
});

describe('Function: runQuery', () => {
  it('prints numbers of every DuckDB kind right-aligned and unquoted', async () => {
    const { status, stdout } = await run(
      `SELECT 'x' AS t, 109::BIGINT AS b, 1.5::DECIMAL(18,3) AS d, 2::HUGEINT AS h, NULL::INTEGER AS n`,
    );
    expect(status).toBe(0);
    expect(stdout.split('\n').slice(1, 5)).toEqual([
      '│    t    │   b    │       d       │    h    │    n    │',
      '│ varchar │ bigint │ decimal(18,3) │ hugeint │ integer │',
      '├─────────┼────────┼───────────────┼─────────┼─────────┤',
      '│ x       │    109 │         1.500 │       2 │    NULL │',
    ]);
  });

  it('names the missing column and lists the columns of the table it read', async () => {
    const { status, stdout, stderr } = await run(
      'SELECT hostname, SiteName FROM skywatch_archive.agent_status',
    );
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^no column SiteName in skywatch_archive\.agent_status; its columns: masterkc, kc, machineid, .*, gsm_key, date; SiteName is a column of skywatch_archive\.agent_status_named, skywatch_archive\.alert_events\n$/,
    );
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('lists the columns of every table a join reads, behind an alias too', async () => {
    const { stderr } = await run(
      `SELECT a.nope FROM skywatch_archive.agent_status a JOIN skywatch_archive.site_usage s ON a.kc = s.site.sitekey`,
    );
    expect(stderr).toMatch(
      /^no column nope in skywatch_archive\.agent_status or skywatch_archive\.site_usage; their columns: skywatch_archive\.agent_status: masterkc, .*; skywatch_archive\.site_usage: reportinfo, site, gsm_key, date, type\n$/,
    );
  });

  it('names a table asked without its schema, and lists the archive tables', async () => {
    const { status, stderr } = await run('SELECT count(*) FROM agent_status');
    expect(status).toBe(1);
    expect(stderr).toBe(
      "no table agent_status: name it with its schema, skywatch_archive.agent_status, as Athena does; the archive's tables are skywatch_archive.agent_status, skywatch_archive.agent_status_named, skywatch_archive.alert_events, skywatch_archive.dnsp_status, skywatch_archive.dnsp_usage, skywatch_archive.gsm_usage, skywatch_archive.site_usage\n",
    );
  });

  it('names an unknown table as the query wrote it', async () => {
    const { stderr } = await run('SELECT * FROM skywatch_archive.endpoints');
    expect(stderr).toMatch(/^no table skywatch_archive\.endpoints: the archive's tables are /);
    const other = await run('SELECT * FROM archive.agent_status');
    expect(other.stderr).toMatch(
      /^no table archive\.agent_status: name it with its schema, skywatch_archive\.agent_status,/,
    );
  });

  it("passes DuckDB's other errors on as DuckDB words them", async () => {
    const { status, stderr } = await run('SELEC 1');
    expect(status).toBe(1);
    expect(stderr).toMatch(/^Parser Error: syntax error at or near "SELEC"/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses --csv with --json, an unknown flag and a bad --max-rows with the usage', async () => {
    for (const argv of [
      ['--csv', '--json', 'SELECT 1'],
      ['--cvs', 'SELECT 1'],
      ['--max-rows', 'ten', 'SELECT 1'],
    ]) {
      const { status, stdout, stderr } = await run(...argv);
      expect(status).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/\n\nUsage: npm run query/);
    }
    expect((await run('--csv', '--json', 'SELECT 1')).stderr).toMatch(
      /^--csv and --json: choose one/,
    );
  });

  it('says where no archive is, and exits 1', async () => {
    const out: string[] = [];
    const status = await runQuery(['--archive', join(root, 'missing'), 'SELECT 1'], {
      stdout: (t) => out.push(t),
      stderr: (t) => out.push(t),
    });
    expect(status).toBe(1);
    expect(out.join('')).toMatch(/^query failed: no archive at .*missing: run `npm start` first/);
  });
});

describe('Function: openArchive', () => {
  it('rejects with a named error that keeps DuckDB’s as its cause', async () => {
    const column = await db
      .query('SELECT sitename FROM skywatch_archive.agent_status')
      .catch((e) => e);
    expect(column).toBeInstanceOf(MissingColumnError);
    expect(column.column).toBe('sitename');
    expect(column.cause.message).toMatch(/^Binder Error/);
    const table = await db.result('SELECT * FROM site_usage').catch((e) => e);
    expect(table).toBeInstanceOf(MissingTableError);
    expect(table.name).toBe('MissingTableError');
  });
});
