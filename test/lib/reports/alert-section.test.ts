import { beforeAll, describe, expect, it } from 'vitest';
import type { AlertReport } from '../../../lib/reports/alert-report.js';
import { alertSection, OPEN_ROWS } from '../../../lib/reports/alert-section.js';
import { loadCharts } from '../../../lib/reports/charts.js';
import { alertReportAt } from '../../support/alert-rows.js';

const DAY = '2026-06-14';
const EMPTY: AlertReport = {
  day: DAY,
  firstDay: '2026-05-16',
  open: [],
  opened: 0,
  resolved: 0,
  resolveTimes: [],
  rows: 0,
  skipped: 0,
};

const sites = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ key: `S${i}`, name: `Site number ${i}` }));

beforeAll(loadCharts);

describe('Function: alertSection', () => {
  it('says in a sentence that an empty history has no alert, with no chart or table', () => {
    const html = alertSection(EMPTY, 25);
    expect(html).toContain('<section id="alerts">');
    expect(html).toContain('No alert was raised or resolved in the 30 days to 2026-06-14.');
    expect(html).not.toContain('<svg');
    expect(html).not.toContain('<table');
  });

  it('says so when alerts are open but none was resolved, and when none is open', () => {
    const open = alertSection(
      {
        ...EMPTY,
        rows: 1,
        opened: 1,
        open: [{ site: 'S', siteName: 'Shop', kind: 'offline', alerts: 1 }],
      },
      25,
    );
    expect(open).toContain('No alert was resolved in the 30 days to 2026-06-14.');
    expect(open).not.toContain('id="chart-resolve"');
    const none = alertSection(
      {
        ...EMPTY,
        rows: 2,
        resolved: 1,
        resolveTimes: [{ site: 'S', siteName: 'Shop', resolved: 1, meanMinutes: 2, p90Minutes: 2 }],
      },
      25,
    );
    expect(none).toContain('No alert is open at the end of 2026-06-14.');
    expect(none).toContain('id="chart-resolve"');
  });

  it('says how many history lines it could not read', () => {
    expect(alertSection({ ...EMPTY, skipped: 3 }, 25)).toContain(
      '3 lines of the alert history could not be read and are left out.',
    );
  });

  it('charts and lists the slowest sites only, as the other per-site charts do', () => {
    const html = alertSection({ ...alertReportAt(sites(4), DAY), open: [] }, 2);
    expect(html).toContain('the 2 slowest of 4 sites');
    expect(html).toContain('<th>Site number 1<');
    expect(html).not.toContain('<th>Site number 2<');
  });

  it('lists the site and kind pairs with the most open alerts, and counts the rest', () => {
    const html = alertSection(
      { ...alertReportAt(sites(OPEN_ROWS + 3), DAY), resolveTimes: [] },
      25,
    );
    expect(html).toContain(`<th>Site number ${OPEN_ROWS - 1}<`);
    expect(html).not.toContain(`<th>Site number ${OPEN_ROWS}<`);
    expect(html).toContain('3 more site-and-kind pairs have fewer open alerts');
  });

  it('escapes a site name from the service wherever it shows it', () => {
    const hostile = '<script>alert(1)</script>';
    const html = alertSection(
      {
        ...EMPTY,
        rows: 2,
        open: [{ site: 'S', siteName: hostile, kind: 'offline', alerts: 1 }],
        resolveTimes: [
          { site: 'S', siteName: hostile, resolved: 1, meanMinutes: 1, p90Minutes: 1 },
        ],
      },
      25,
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
