import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HealthKind, KIND_TEXT } from '../../lib/alerts/index.js';
import { AlertHistory, ReportStore } from '../../lib/aws/index.js';
import { type BuildOutcome, buildReports } from '../../lib/reports/index.js';
import { mirrorArchive } from '../../scripts/local/archive-mirror.js';
import { type ArchiveDatabase, openArchive } from '../../scripts/query/archive-database.js';
import { historyRow, type Transition } from '../support/alert-rows.js';
import { type ArchivedProduct, startArchivedProduct } from '../support/archived-product.js';
import { launchChromium, type OpenedPage, openFile } from '../support/browser.js';

/** Kept after the run (gitignored): the page and its screenshot, to look at. */
const ARTIFACTS = join(import.meta.dirname, '..', '.artifacts', 'reports');
const DAY = '2026-06-14';
const HOSTILE = `<img src=x onerror="alert(1)">Front & "Back" Office`;

const doc = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');

/** The documented alert queries, asked as of the report day rather than of today. */
function documented(): string[] {
  const start = doc.indexOf('## Alert history');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) =>
    (m[1] ?? '').trim().replace(/;$/, '').replaceAll('current_date', `DATE '${DAY}'`),
  );
}

let archived: ArchivedProduct;
let browser: Browser;
let opened: OpenedPage;
let outcome: BuildOutcome;
let db: ArchiveDatabase;
let folder = '';
const sites: { key: string; name: string }[] = [];

/** The alerter's and the notifier's history of the days before the page, as they write it. */
async function writeHistory(): Promise<void> {
  const { product } = archived;
  const store = new ReportStore(product.aws.clients.s3, product.res.bucket);
  const [a, b, c] = sites;
  if (!a || !b || !c) throw new Error('the emulator has fewer than three sites');
  const names = new Map(sites.map((s) => [s.key, s.name]));
  const at = (day: string, time: string, t: Omit<Transition, 'at'>): Transition => ({
    siteName: names.get(t.site ?? ''),
    ...t,
    gsm: product.gsm,
    at: `${day}T${time}Z`,
  });
  const alerter: Transition[][] = [
    [at('2026-06-10', '08:00:00', { alert: 'infected/X1', seq: 1, event: 'trigger', site: a.key })],
    [
      at('2026-06-11', '08:00:00', {
        alert: 'offline/Z1',
        seq: 1,
        event: 'trigger',
        site: c.key,
        siteName: HOSTILE,
      }),
      at('2026-06-11', '08:00:00', {
        alert: 'offline/Z2',
        seq: 2,
        event: 'resolve',
        site: c.key,
        siteName: HOSTILE,
        seconds: 300,
      }),
    ],
    [
      at('2026-06-12', '08:00:00', { alert: 'offline/X2', seq: 1, event: 'trigger', site: a.key }),
      at('2026-06-12', '08:10:00', {
        alert: 'offline/X2',
        seq: 2,
        event: 'resolve',
        site: a.key,
        seconds: 600,
      }),
    ],
    // Resolved on the 13th, raised before the window: resolved, never open.
    [
      at('2026-06-13', '08:00:00', {
        alert: 'protection-off/Y2',
        seq: 2,
        event: 'resolve',
        site: b.key,
        seconds: 7200,
      }),
    ],
    [
      at(DAY, '01:00:00', { alert: 'offline/X3', seq: 1, event: 'trigger', site: a.key }),
      at(DAY, '01:20:00', {
        alert: 'offline/X3',
        seq: 2,
        event: 'resolve',
        site: a.key,
        seconds: 1200,
      }),
      at(DAY, '05:00:00', { alert: 'offline/X3', seq: 3, event: 'trigger', site: a.key }),
      at(DAY, '06:00:00', { alert: 'protection-off/Y1', seq: 1, event: 'trigger', site: b.key }),
      at(DAY, '06:00:00', { alert: 'infected/Y3', seq: 1, event: 'grouped', site: b.key }),
    ],
  ];
  for (const [i, rows] of alerter.entries()) {
    const history = new AlertHistory(store, 'alerter', (e) => {
      throw e;
    });
    await history.write(`alerter-run-${i}`, rows.map(historyRow), Date.parse(rows[0]?.at ?? ''));
  }
  const notifier = new AlertHistory(store, 'notifier', (e) => {
    throw e;
  });
  const delivered = at(DAY, '06:00:05', {
    alert: 'protection-off/Y1',
    seq: 1,
    event: 'delivered',
    site: b.key,
  });
  await notifier.write('notifier-run', [historyRow(delivered)], Date.parse(delivered.at));
}

beforeAll(async () => {
  archived = await startArchivedProduct();
  const { product } = archived;
  sites.push(...(product.emulator.info().gsms[0]?.sites ?? []).slice(0, 3));
  await writeHistory();
  outcome = await buildReports(
    { s3: product.aws.clients.s3, bucket: product.res.bucket },
    { gsm: product.gsm, day: DAY, linkSeconds: 3600 },
  );
  const page = await product.aws.clients.s3.send(
    new GetObjectCommand({ Bucket: product.res.bucket, Key: outcome.pageKey }),
  );
  await mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `alerts-${DAY}.html`);
  await writeFile(path, (await page.Body?.transformToString()) ?? '');
  folder = await mkdtemp(join(tmpdir(), 'skywatch-alert-section-'));
  await mirrorArchive(product.aws.clients.s3, product.res.bucket, folder, {
    prefixes: ['reports/alert-events/'],
  });
  db = await openArchive(folder);
  browser = await launchChromium();
  opened = await openFile(browser, path);
  await opened.page.locator('#alerts').screenshot({ path: join(ARTIFACTS, `alerts-${DAY}.png`) });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  db?.close();
  await archived?.product.close();
  if (archived) await rm(archived.folder, { recursive: true, force: true });
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** The cells of a table's body rows, as text. */
const tableRows = (selector: string) =>
  opened.page.$$eval(`${selector} tbody tr`, (rows) =>
    rows.map((r) => [...r.children].map((c) => (c.textContent ?? '').trim())),
  );
const name = (i: number) => sites[i]?.name ?? '';

describe('Page: the Alerts section of the daily report in headless Chromium', () => {
  it("shows the alerts open at the end of the report day, and that day's opened and resolved", async () => {
    const totals = await opened.page.$$eval('#alerts .totals div', (divs) =>
      divs.map((d) => [d.firstChild?.textContent, d.querySelector('b')?.textContent]),
    );
    expect(totals).toEqual([
      [`Open at the end of ${DAY}`, '4'],
      [`Opened on ${DAY}`, '3'],
      [`Resolved on ${DAY}`, '1'],
    ]);
    expect(outcome.alerts).toEqual({ open: 4, opened: 3, resolved: 1, sitesResolved: 3 });
  });

  it('lists open alerts by site and kind, the hostile site name as text', async () => {
    const rows = await tableRows('#alerts > .scroll');
    expect(rows.sort()).toEqual(
      [
        [HOSTILE, 'Not seen', '1'],
        [name(0), 'Infected', '1'],
        [name(0), 'Not seen', '1'],
        [name(1), 'Protection off', '1'],
      ].sort(),
    );
    expect(opened.dialogs).toEqual([]);
    expect(await opened.page.locator('#alerts img').count()).toBe(0);
  });

  it('charts the time to resolve per site beside the table of its minutes', async () => {
    const figure = opened.page.locator('#chart-resolve');
    expect(await figure.locator('svg').count()).toBe(1);
    expect(await figure.locator('svg path').count()).toBeGreaterThan(3);
    expect(await tableRows('#chart-resolve + table')).toEqual([
      [name(1), '1', '120.0', '120.0'],
      [name(0), '2', '15.0', '19.0'],
      [HOSTILE, '1', '5.0', '5.0'],
    ]);
    expect(opened.errors).toEqual([]);
    expect(opened.requests).toEqual([]);
  });

  it('agrees with the documented queries of docs/operations.md, asked as of the report day', async () => {
    const [openNow = '', , toResolve = ''] = documented();
    const open = await db.query(openNow);
    const byKind = new Map<string, number>();
    for (const r of open) {
      const key = `${r.site}/${KIND_TEXT[r.kind as HealthKind].title}`;
      byKind.set(key, (byKind.get(key) ?? 0) + 1);
    }
    const shownOpen = await tableRows('#alerts > .scroll');
    const keyOf = (siteName: string) =>
      sites.find((s) => s.name === siteName)?.key ?? sites[2]?.key;
    expect(new Map(shownOpen.map((r) => [`${keyOf(r[0] ?? '')}/${r[1]}`, Number(r[2])]))).toEqual(
      byKind,
    );
    const times = await db.query(toResolve);
    const shown = await tableRows('#chart-resolve + table');
    expect(shown.map((r) => [r[1], r[2], r[3]])).toEqual(
      times.map((t) => [
        String(t.resolved),
        Number(t.mean_minutes).toFixed(1),
        Number(t.p90_minutes).toFixed(1),
      ]),
    );
  });
});
