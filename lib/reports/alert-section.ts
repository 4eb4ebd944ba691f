import { KIND_TEXT } from '../alerts/model.js';
import { daysFrom } from '../validation/day.js';
import { type AlertReport, openTotal } from './alert-report.js';
import { chartSvg } from './charts.js';
import { escapeHtml, figure, formatCount, table } from './html.js';

const tenths = (minutes: number | null) => (minutes === null ? null : minutes.toFixed(1));

/**
 * Rows of the open-alerts table, most alerts first. A console of thousands of sites can have
 * thousands of site-and-kind pairs open, and the page has a size to keep: the rest are counted
 * in a sentence and listed by the documented query.
 */
export const OPEN_ROWS = 100;

function openTable(a: AlertReport): string {
  if (a.open.length === 0) return `<p>No alert is open at the end of ${escapeHtml(a.day)}.</p>`;
  const shown = a.open.slice(0, OPEN_ROWS);
  const rows = shown.map((o) => [o.siteName, KIND_TEXT[o.kind].title, o.alerts]);
  const caption = `Alerts open at the end of ${a.day}, by site and kind`;
  const more = a.open.length - shown.length;
  const rest =
    more > 0
      ? `<p>${formatCount(more)} more site-and-kind pairs have fewer open alerts; the query "Alerts open now" of docs/operations.md lists every one.</p>`
      : '';
  return `<div class="scroll">${table({ caption, columns: ['Site', 'Kind', 'Open alerts'], rows, numeric: [2] })}</div>${rest}`;
}

function resolveFigure(a: AlertReport, days: number, chartSites: number): string {
  if (a.resolveTimes.length === 0)
    return `<p>No alert was resolved in the ${days} days to ${escapeHtml(a.day)}.</p>`;
  const top = a.resolveTimes.slice(0, chartSites);
  const which =
    top.length < a.resolveTimes.length
      ? `the ${top.length} slowest of ${a.resolveTimes.length} sites`
      : 'by site';
  const caption = `Minutes to resolve in the ${days} days to ${a.day}, ${which}`;
  const svg = chartSvg({
    kind: 'bar',
    title: caption,
    horizontal: true,
    categories: top.map((s) => s.siteName),
    series: [
      { name: 'Mean', values: top.map((s) => s.meanMinutes) },
      { name: '90th percentile', values: top.map((s) => s.p90Minutes) },
    ],
  });
  // Minutes keep their tenth: the table's own number format would round it away.
  const rows = top.map((s) => [
    s.siteName,
    s.resolved,
    tenths(s.meanMinutes),
    tenths(s.p90Minutes),
  ]);
  const data = table({
    caption,
    columns: ['Site', 'Resolved', 'Mean', '90th percentile'],
    rows,
    numeric: [1, 2, 3],
  });
  return figure('chart-resolve', svg, caption, data);
}

/**
 * The alert history (./alert-report.ts) as a section of the daily page: alerts open at the end
 * of the report day by site and kind, those opened and resolved that day, and each site's time
 * to resolve over the page's trend days, for the `chartSites` slowest sites as the page's other
 * per-site charts do.
 *
 * @example
 * const html = alertSection(report.alerts, CHART_SITES);
 */
export function alertSection(a: AlertReport, chartSites: number): string {
  const days = daysFrom(a.firstDay, a.day).length;
  const skipped =
    a.skipped > 0
      ? `<p>${formatCount(a.skipped)} line${a.skipped === 1 ? '' : 's'} of the alert history could not be read and ${a.skipped === 1 ? 'is' : 'are'} left out.</p>`
      : '';
  if (a.rows === 0)
    return `<section id="alerts"><h2>Alerts</h2><p>No alert was raised or resolved in the ${days} days to ${escapeHtml(a.day)}.</p>${skipped}</section>`;
  const totals = [
    [`Open at the end of ${a.day}`, openTotal(a)],
    [`Opened on ${a.day}`, a.opened],
    [`Resolved on ${a.day}`, a.resolved],
  ]
    .map(([label, value]) => `<div>${escapeHtml(label)}<b>${formatCount(Number(value))}</b></div>`)
    .join('');
  // Only transitions are recorded: an alert raised before the window and untouched since has
  // no row to be counted from, and the reader should know the open count can miss it.
  const scope = `<p>From the alerts sent in the ${days} days from ${escapeHtml(a.firstDay)} to ${escapeHtml(a.day)}; an alert raised before ${escapeHtml(a.firstDay)} and neither resolved nor raised again since is not counted.</p>`;
  return `<section id="alerts"><h2>Alerts</h2>${scope}<div class="totals">${totals}</div>
${openTable(a)}
${resolveFigure(a, days, chartSites)}${skipped}</section>`;
}
