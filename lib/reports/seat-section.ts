import { escapeHtml, formatCount, table } from './html.js';
import type { SeatReport } from './seat-report.js';

/** The seat report as a section of the daily page: totals, then a row a site. */
export function seatSection(report: SeatReport): string {
  const sum = (f: (s: SeatReport['sites'][number]) => number) =>
    report.sites.reduce((n, s) => n + f(s), 0);
  const missing = report.daysInMonth - report.daysArchived.length;
  const note =
    missing > 0
      ? `<p><strong>${formatCount(missing)} of ${formatCount(report.daysInMonth)} days of ${escapeHtml(report.month)} have no archived sites report</strong>; averages are over the days reported.</p>`
      : '';
  // Licence and keys are in the CSV; the page keeps a row small for 5,000-site consoles.
  const rows = report.sites.map((s) => [
    s.siteName,
    s.trialDays,
    s.endpointsMax,
    s.endpointsAvg.toFixed(2),
    s.endpointsLastDay,
    s.dnspSeatsMax,
    s.dnspSeatsLastDay,
  ]);
  const data = table({
    caption: `Seats per site in ${report.month}`,
    columns: [
      'Site',
      'Trial days',
      'Most endpoints',
      'Average',
      'Last day',
      'Most DNSP seats',
      'DNSP seats last day',
    ],
    rows,
    numeric: [1, 2, 3, 4, 5, 6],
  });
  return `<section id="seats"><h2>Seats in ${escapeHtml(report.month)}</h2>
<p>${formatCount(report.sites.length)} sites; most endpoints summed over sites ${formatCount(sum((s) => s.endpointsMax))}, last day ${formatCount(sum((s) => s.endpointsLastDay))}; DNSP seats last day ${formatCount(sum((s) => s.dnspSeatsLastDay))}. The same numbers are in the month's CSV (<code>seats-${escapeHtml(report.month)}.csv</code>).</p>
${note}${data}</section>`;
}
