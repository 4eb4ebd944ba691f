import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { daysUpTo } from '../lib/index.js';
import { type DailyReport, renderDailyPage, type SeatReport } from '../lib/reports/index.js';
import { daysOfMonth } from '../lib/reports/seat-report.js';
import { alertReportAt } from '../test/support/alert-rows.js';
import { launchChromium, openFile } from '../test/support/browser.js';

export interface ReportPageBench {
  sites: number;
  /** The page's size in bytes, with the month's seat section (its largest day). */
  bytes: number;
  /** Server-side: charts to SVG and the HTML string. */
  renderMs: number;
  /** Headless Chromium, opening the file until its load event. */
  loadMs: number;
  target: { bytes: number; loadMs: number };
}

const NAMES = ['Acme', 'Globex', 'Initech', 'Hooli', 'Umbrella', 'Vandelay', 'Stark', 'Wayne'];
const KINDS = ['Bakery', 'Garage', 'Logistics', 'Dental', 'Law Office', 'Clinic', 'Studio'];

/** A GSM of `count` sites shaped like the emulator's (sizes, licences, DNSP on two in three). */
function report(count: number): { daily: DailyReport; seats: SeatReport } {
  const day = '2026-06-30';
  const sites = Array.from({ length: count }, (_, i) => {
    const endpoints = 5 + ((i * 7919) % 400);
    return {
      key: `S${String(i).padStart(4, '0')}-AAAA-BBBB-CCCC-DDDD`,
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      name: `${NAMES[i % NAMES.length]} ${KINDS[i % KINDS.length]} ${i + 1}`,
      licenseType: i % 9 === 0 ? 'Trial' : 'Full',
      expiryDate: new Date(Date.parse(day) + ((i * 37) % 700) * 86_400_000).toISOString(),
      endpoints,
      dnspEnabled: i % 3 !== 0,
      dnspAgents: i % 3 !== 0 ? Math.round(endpoints * 0.7) : 0,
      infected: i % 50 === 0 ? 1 : 0,
      blockedUrls: (i * 131) % 5000,
    };
  });
  const trend = daysUpTo(day, 30).map((date, i) => ({
    date,
    activeEndpoints: 1_000_000 + i * 100,
    infected: 100 + i,
    newInfections: 5 + (i % 4),
    cleaned: 4 + (i % 3),
  }));
  const daily: DailyReport = {
    gsm: 'W9YT-G4ZI-JT0Z-ERPO-3ZZI',
    gsmName: 'Umbrella MSP',
    gsmExpiry: '2027-06-30T00:00:00Z',
    day,
    snapshotDate: '2026-07-02',
    generatedAt: '2026-07-02T08:00:00Z',
    sites,
    endpointTrend: trend,
    infectionTrend: trend,
    expiryWindowDays: 60,
    alerts: alertReportAt(sites, day),
  };
  const seats: SeatReport = {
    gsm: daily.gsm,
    month: '2026-06',
    daysInMonth: 30,
    daysArchived: daysOfMonth('2026-06'),
    sites: sites.map((s) => ({
      siteKey: s.key,
      siteId: s.id,
      siteName: s.name,
      licence: s.licenseType,
      trialDays: s.licenseType === 'Trial' ? 30 : 0,
      fullDays: s.licenseType === 'Trial' ? 0 : 30,
      daysReported: 30,
      endpointsMax: s.endpoints + 3,
      endpointsAvg: s.endpoints - 0.37,
      endpointsLastDay: s.endpoints,
      lastDay: '2026-06-30',
      dnspEnabled: s.dnspEnabled,
      dnspSeatsMax: s.dnspAgents + 2,
      dnspSeatsLastDay: s.dnspAgents,
    })),
  };
  return { daily, seats };
}

/** The daily page of 5,000 sites, with its seat section: its size and how fast it opens. */
export async function reportPage(sites = 5000): Promise<ReportPageBench> {
  const dir = await mkdtemp(join(tmpdir(), 'skywatch-bench-page-'));
  // The browser before the page: a machine without one fails the step before seconds of render.
  const browser = await launchChromium();
  try {
    const { daily, seats } = report(sites);
    const start = performance.now();
    const html = await renderDailyPage(daily, seats);
    const renderMs = performance.now() - start;
    const path = join(dir, 'report.html');
    await writeFile(path, html);
    const opened = await openFile(browser, path);
    if (opened.errors.length > 0 || opened.requests.length > 0)
      throw new Error(`the page misbehaved: ${[...opened.errors, ...opened.requests].join('; ')}`);
    return {
      sites,
      bytes: Buffer.byteLength(html),
      renderMs,
      loadMs: opened.loadMs,
      target: { bytes: 1_000_000, loadMs: 2000 },
    };
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
}
