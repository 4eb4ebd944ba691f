import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretStore, SecretTokenSource } from '../../lib/aws/index.js';
import { systemClock } from '../../lib/http/index.js';
import { SkywatchClient } from '../../lib/index.js';
import {
  ArchiveReader,
  blockedUrlTotals,
  collectDailyReport,
  collectSeatReport,
  type DailyReport,
  renderDailyPage,
  type SeatReport,
  seatCsv,
} from '../../lib/reports/index.js';
import { type ArchiveDatabase, openArchive } from '../../scripts/query/archive-database.js';
import { type ArchivedProduct, startArchivedProduct } from '../support/archived-product.js';
import { launchChromium, type OpenedPage, openFile } from '../support/browser.js';

/** Kept after the run (gitignored): the pages and their screenshots, to look at. */
const ARTIFACTS = join(import.meta.dirname, '..', '.artifacts', 'reports');
const DAY = '2026-06-14';
const SPIKE = 4321;

let archived: ArchivedProduct;
let db: ArchiveDatabase;
let browser: Browser;
let report: DailyReport;
let seats: SeatReport;
let opened: OpenedPage;

beforeAll(async () => {
  // May in full (the seat report's month) and June up to the report day.
  archived = await startArchivedProduct('2026-05-01');
  const { product } = archived;
  const client = new SkywatchClient({
    baseUrl: product.emulator.baseUrl,
    // The 4.9 window is checked against the service's day, which the emulator sets in 2026-06.
    clock: { ...systemClock, now: () => product.emulator.now().getTime() },
    auth: new SecretTokenSource(
      new SecretStore(product.aws.clients.secrets),
      product.res.tokenSecretArn,
    ),
  });
  const sites = product.emulator.info().gsms[0]?.sites ?? [];
  const spiked = sites[1];
  if (spiked) product.emulator.addBlockedUrls(spiked.id, '2026-06-13', SPIKE);
  const blocked = await blockedUrlTotals(client, product.gsm, sites, DAY);
  expect(blocked.failed).toEqual([]);
  const reader = new ArchiveReader(product.aws.clients.s3, product.res.bucket);
  report = await collectDailyReport(reader, {
    gsm: product.gsm,
    day: DAY,
    snapshotDate: '2026-06-16',
    blockedUrls: blocked.bySite,
  });
  seats = await collectSeatReport(reader, product.gsm, '2026-05');
  db = await openArchive(archived.folder);
  await mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `daily-${DAY}.html`);
  await writeFile(path, await renderDailyPage(report, seats));
  await writeFile(join(ARTIFACTS, 'seats-2026-05.csv'), seatCsv(seats));
  browser = await launchChromium();
  opened = await openFile(browser, path);
  await opened.page.screenshot({ path: join(ARTIFACTS, `daily-${DAY}.png`), fullPage: true });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  db?.close();
  await archived?.product.close();
  if (archived) await rm(archived.folder, { recursive: true, force: true });
});

/** The cells of a table's body rows, as text. */
const tableRows = (selector: string) =>
  opened.page.$$eval(`${selector} tbody tr`, (rows) =>
    rows.map((r) => [...r.children].map((c) => c.textContent ?? '')),
  );
const num = (text: string | undefined) => Number((text ?? '').replaceAll(',', ''));

describe('Page: the daily report in headless Chromium', () => {
  it('draws every chart as inline SVG, with no console error and no request leaving the page', async () => {
    const charts = ['endpoints', 'trend', 'infections', 'blocked', 'licences', 'dnsp'];
    for (const id of charts) {
      const figure = opened.page.locator(`#chart-${id}`);
      expect(await figure.locator('svg').count(), id).toBe(1);
      // A chart with data draws shapes, and has a table of its numbers beside it.
      expect(await figure.locator('svg path').count(), id).toBeGreaterThan(3);
      expect(
        await opened.page.locator(`#chart-${id} + * table, #chart-${id} + table`).count(),
        id,
      ).toBe(1);
    }
    expect(opened.errors).toEqual([]);
    expect(opened.requests).toEqual([]);
    expect(opened.dialogs).toEqual([]);
  });

  it('lists every archived site with the endpoints of the sites report', async () => {
    const rows = await tableRows('#sites');
    const archivedSites = await db.query(
      `SELECT site.sitename AS name, site.totalendpoints AS endpoints FROM skywatch_archive.site_usage
       WHERE gsm_key = '${archived.product.gsm}' AND "date" = '${DAY}' AND type = 'ActiveEndpoints' ORDER BY name`,
    );
    expect(rows.map((r) => [r[0], num(r[1])])).toEqual(
      archivedSites.map((s) => [s.name, Number(s.endpoints)]),
    );
  });

  it('shows the 30-day trend of the archived GSM reports', async () => {
    const rows = await tableRows('#trend');
    const archivedDays = await db.query(
      `SELECT "date", gsm.totalendpointswithouttrial + gsm.totaltrialendpoints AS total FROM skywatch_archive.gsm_usage
       WHERE type = 'ActiveEndpoints' AND "date" BETWEEN '2026-05-16' AND '${DAY}' ORDER BY "date"`,
    );
    expect(rows).toHaveLength(30);
    expect(rows.map((r) => [r[0], num(r[1])])).toEqual(
      archivedDays.map((d) => [d.date, Number(d.total)]),
    );
  });

  it('counts the infected endpoints of the snapshot and the blocked URLs the service reports', async () => {
    const infections = await tableRows('#infections');
    const last = infections.find((r) => r[0] === '2026-06-14');
    expect(num(last?.[1])).toBe(archived.infected.length);
    const blocked = await tableRows('#blocked');
    expect(blocked[0]?.[0]).toBe(archived.product.emulator.info().gsms[0]?.sites[1]?.name);
    expect(num(blocked[0]?.[1])).toBeGreaterThanOrEqual(SPIKE);
  });

  it('shows DNS protection agents of the archived DNSP reports', async () => {
    const rows = await tableRows('#dnsp');
    const agents = await db.query(
      `SELECT sites[1].sitename AS name, sites[1].totaldnspagents AS agents FROM skywatch_archive.dnsp_usage WHERE "date" = '${DAY}'`,
    );
    for (const row of rows)
      expect(num(row[2])).toBe(Number(agents.find((a) => a.name === row[0])?.agents));
  });
});

describe('Report: past snapshots are read once', () => {
  it('keeps the infected endpoints of past snapshots, not the newest, and reads them back alike', async () => {
    const { product } = archived;
    const kept = new Map<string, [string, string][]>();
    const cache = {
      get: async (_gsm: string, date: string) => kept.get(date),
      put: async (_gsm: string, date: string, infected: [string, string][]) => {
        kept.set(date, infected);
      },
    };
    const reader = new ArchiveReader(product.aws.clients.s3, product.res.bucket);
    const options = {
      gsm: product.gsm,
      day: DAY,
      snapshotDate: '2026-06-16',
      infectedCache: cache,
    };
    const first = await collectDailyReport(reader, options);
    expect([...kept.keys()]).toEqual(['2026-06-14']);
    expect(
      kept
        .get('2026-06-14')
        ?.map(([id]) => id)
        .sort(),
    ).toEqual([...archived.infected].sort());
    // A cache that lies shows that the second build used it rather than the snapshot.
    kept.set('2026-06-14', []);
    const second = await collectDailyReport(reader, options);
    const on = (r: DailyReport, date: string) => r.infectionTrend.find((d) => d.date === date);
    expect(on(first, '2026-06-14')?.infected).toBe(archived.infected.length);
    expect(on(second, '2026-06-14')?.infected).toBe(0);
    expect(on(second, '2026-06-16')).toEqual(on(first, '2026-06-16'));
  });
});

describe('Page: values from the service are text, never markup', () => {
  it('shows a hostile site name literally and runs nothing', async () => {
    const hostile = `<img src=x onerror="alert(1)"><script>alert(2)</script>"'&`;
    const site = { ...report.sites[0], name: hostile } as DailyReport['sites'][number];
    const html = await renderDailyPage({ ...report, gsmName: hostile, sites: [site] });
    expect(html).not.toContain('<script>alert');
    const path = join(ARTIFACTS, 'hostile.html');
    await writeFile(path, html);
    const page = await openFile(browser, path);
    expect(await page.page.locator('#sites tbody th').first().textContent()).toBe(hostile);
    expect(page.dialogs).toEqual([]);
    expect(page.requests).toEqual([]);
    await page.page.close();
  });
});

describe('Report: monthly seats', () => {
  it('matches the archived usage reports of every day of the month, site by site', async () => {
    expect(seats.daysArchived).toHaveLength(31);
    const expected = await db.query(
      `SELECT site.sitekey AS key, max(site.totalendpoints) AS most, round(avg(site.totalendpoints), 2) AS average,
              arg_max(site.totalendpoints, "date") AS last, count(*) AS days,
              count(*) FILTER (WHERE lower(site.licensetype) = 'trial') AS trial
       FROM skywatch_archive.site_usage
       WHERE gsm_key = '${archived.product.gsm}' AND type = 'ActiveEndpoints' AND "date" LIKE '2026-05-%'
       GROUP BY 1 ORDER BY 1`,
    );
    const dnsp = await db.query(
      `SELECT sites[1].sitekey AS key, max(sites[1].totaldnspagents) AS most,
              arg_max(sites[1].totaldnspagents, "date") AS last
       FROM skywatch_archive.dnsp_usage WHERE "date" LIKE '2026-05-%' GROUP BY 1`,
    );
    expect(expected.length).toBeGreaterThan(0);
    const bySite = new Map(seats.sites.map((s) => [s.siteKey, s]));
    for (const row of expected) {
      const s = bySite.get(String(row.key));
      expect(s?.endpointsMax).toBe(Number(row.most));
      expect(s?.endpointsAvg).toBeCloseTo(Number(row.average), 2);
      expect(s?.endpointsLastDay).toBe(Number(row.last));
      expect(s?.daysReported).toBe(Number(row.days));
      expect(s?.trialDays).toBe(Number(row.trial));
      const agents = dnsp.find((d) => d.key === row.key);
      expect(s?.dnspSeatsMax).toBe(Number(agents?.most));
      expect(s?.dnspSeatsLastDay).toBe(Number(agents?.last));
    }
    expect(seats.sites).toHaveLength(expected.length);
  });

  it('is a section of the page with a row a site', async () => {
    const rows = await tableRows('#seats');
    expect(rows.map((r) => r[0])).toEqual(seats.sites.map((s) => s.siteName));
    expect(rows.map((r) => num(r[2]))).toEqual(seats.sites.map((s) => s.endpointsMax));
  });
});
