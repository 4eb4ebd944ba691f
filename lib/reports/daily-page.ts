import { alertSection } from './alert-section.js';
import { chartSvg, loadCharts } from './charts.js';
import { type DailyReport, daysUntil, type SiteRow } from './daily-report.js';
import { escapeHtml, figure, formatCount, table } from './html.js';
import type { SeatReport } from './seat-report.js';
import { seatSection } from './seat-section.js';

/** Sites a per-site chart shows: the largest; the "All sites" table lists every one. */
export const CHART_SITES = 25;

/**
 * No script, no request: the policy forbids every fetch, so the page behaves the same opened
 * from S3, from a signed link of the report site (whose header policy repeats it), or from a
 * disk with no network.
 */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#1d2330}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ccd}
.pair{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}figure{margin:0}
table{border-collapse:collapse;font-size:13px}caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{padding:2px 8px;border-bottom:1px solid #e3e5ea;text-align:right}th,td.t{text-align:left}
.totals{display:flex;gap:1.5rem;flex-wrap:wrap}.totals div{background:#f3f5f9;padding:.5rem .75rem}
.totals b{display:block;font-size:1.2rem}.scroll{max-height:32rem;overflow:auto}`;

const largest = (sites: SiteRow[], by: (s: SiteRow) => number) =>
  [...sites].sort((a, b) => by(b) - by(a) || a.name.localeCompare(b.name)).slice(0, CHART_SITES);

function endpointsSection(r: DailyReport): string {
  const top = largest(r.sites, (s) => s.endpoints);
  const caption = `Active endpoints on ${r.day}, the ${top.length} largest of ${r.sites.length} sites`;
  const svg = chartSvg({
    kind: 'bar',
    title: caption,
    horizontal: true,
    categories: top.map((s) => s.name),
    series: [{ name: 'Active endpoints', values: top.map((s) => s.endpoints) }],
  });
  const rows = top.map((s) => [s.name, s.endpoints, s.licenseType]);
  const data = table({ caption, columns: ['Site', 'Endpoints', 'Licence'], rows, numeric: [1] });
  return `<section id="endpoints"><h2>Endpoints per site</h2>${figure('chart-endpoints', svg, caption, data)}</section>`;
}

function endpointTrendSection(r: DailyReport): string {
  const caption = `Active endpoints, the ${r.endpointTrend.length} days to ${r.day}`;
  const svg = chartSvg({
    kind: 'line',
    title: caption,
    categories: r.endpointTrend.map((d) => d.date.slice(5)),
    series: [{ name: 'Active endpoints', values: r.endpointTrend.map((d) => d.activeEndpoints) }],
  });
  const rows = r.endpointTrend.map((d) => [d.date, d.activeEndpoints]);
  const data = `<div class="scroll">${table({ caption, columns: ['Day', 'Active endpoints'], rows, numeric: [1] })}</div>`;
  return `<section id="trend"><h2>Active endpoints, 30 days</h2>${figure('chart-trend', svg, caption, data)}</section>`;
}

function infectionSection(r: DailyReport): string {
  if (r.infectionTrend.length === 0 || !r.snapshotDate)
    return '<section id="infections"><h2>Infections and cleanups</h2><p>No status snapshot is archived for these days.</p></section>';
  const caption = `Infections and cleanups by status snapshot, the ${r.infectionTrend.length} days to ${r.snapshotDate}`;
  const svg = chartSvg({
    kind: 'bar',
    title: caption,
    categories: r.infectionTrend.map((d) => d.date.slice(5)),
    series: [
      { name: 'Infected', values: r.infectionTrend.map((d) => d.infected) },
      { name: 'New infections', values: r.infectionTrend.map((d) => d.newInfections) },
      { name: 'Cleaned', values: r.infectionTrend.map((d) => d.cleaned) },
    ],
  });
  const rows = r.infectionTrend.map((d) => [d.date, d.infected, d.newInfections, d.cleaned]);
  const data = `<div class="scroll">${table({
    caption,
    columns: ['Day', 'Infected', 'New infections', 'Cleaned'],
    rows,
    numeric: [1, 2, 3],
  })}</div>`;
  return `<section id="infections"><h2>Infections and cleanups</h2>${figure('chart-infections', svg, caption, data)}</section>`;
}

function blockedSection(r: DailyReport): string {
  const known = r.sites.filter((s) => s.blockedUrls !== null);
  if (known.length === 0)
    return '<section id="blocked"><h2>Blocked URLs per site</h2><p>Blocked-URL counts were not read for this report.</p></section>';
  const top = largest(known, (s) => s.blockedUrls ?? 0);
  const caption = `Blocked-URL actions in the 7 days to ${r.day}, the ${top.length} sites with the most`;
  const svg = chartSvg({
    kind: 'bar',
    title: caption,
    horizontal: true,
    categories: top.map((s) => s.name),
    series: [{ name: 'Blocked URLs', values: top.map((s) => s.blockedUrls) }],
  });
  const rows = top.map((s) => [s.name, s.blockedUrls]);
  const data = table({ caption, columns: ['Site', 'Blocked URLs'], rows, numeric: [1] });
  return `<section id="blocked"><h2>Blocked URLs per site</h2>${figure('chart-blocked', svg, caption, data)}</section>`;
}

function expirySection(r: DailyReport): string {
  const byExpiry = r.sites
    .map((s) => ({ site: s, days: daysUntil(r.day, s.expiryDate) }))
    .filter((e) => Number.isFinite(e.days))
    .sort((a, b) => a.days - b.days || a.site.name.localeCompare(b.site.name));
  const expiring = byExpiry.filter((e) => e.days <= r.expiryWindowDays).length;
  const gsmDays = r.gsmExpiry ? daysUntil(r.day, r.gsmExpiry) : null;
  const gsmLine =
    gsmDays === null
      ? ''
      : ` The GSM's own licence runs to ${escapeHtml(r.gsmExpiry?.slice(0, 10))} (${formatCount(gsmDays)} days).`;
  const summary = `<p><strong>${formatCount(expiring)} site licence${expiring === 1 ? '' : 's'} expire within ${r.expiryWindowDays} days</strong> of ${escapeHtml(r.day)}.${gsmLine}</p>`;
  if (byExpiry.length === 0)
    return `<section id="licences"><h2>Licences expiring</h2>${summary}</section>`;
  // The soonest, whether or not within the window: a list that is never empty shows how far
  // off the next renewals are.
  const shown = byExpiry.slice(0, Math.max(CHART_SITES, expiring));
  const caption = `Days left on the ${shown.length} site licences that expire soonest`;
  const svg = chartSvg({
    kind: 'bar',
    title: caption,
    horizontal: true,
    categories: shown.slice(0, CHART_SITES).map((e) => e.site.name),
    series: [
      { name: 'Days left', values: shown.slice(0, CHART_SITES).map((e) => Math.max(0, e.days)) },
    ],
  });
  const rows = shown.map((e) => [
    e.site.name,
    e.site.expiryDate?.slice(0, 10) ?? '',
    e.days,
    e.site.licenseType,
    e.days <= r.expiryWindowDays ? 'soon' : '',
  ]);
  const data = `<div class="scroll">${table({ caption, columns: ['Site', 'Expires', 'Days left', 'Licence', `Within ${r.expiryWindowDays} days`], rows, numeric: [2] })}</div>`;
  return `<section id="licences"><h2>Licences expiring</h2>${summary}${figure('chart-licences', svg, caption, data)}</section>`;
}

function dnspSection(r: DailyReport): string {
  const top = largest(r.sites, (s) => s.endpoints);
  const covered = (s: SiteRow) => Math.min(s.dnspAgents, s.endpoints);
  const caption = `DNS protection agents against active endpoints on ${r.day}, the ${top.length} largest sites`;
  const svg = chartSvg({
    kind: 'bar',
    title: caption,
    horizontal: true,
    categories: top.map((s) => s.name),
    series: [
      { name: 'With DNS protection', values: top.map(covered), stack: 'e' },
      { name: 'Without', values: top.map((s) => s.endpoints - covered(s)), stack: 'e' },
    ],
  });
  const rows = top.map((s) => [
    s.name,
    s.dnspEnabled ? 'yes' : 'no',
    s.dnspAgents,
    s.endpoints,
    percent(s.dnspAgents, s.endpoints),
  ]);
  const data = table({
    caption,
    columns: ['Site', 'DNSP', 'Agents', 'Endpoints', 'Coverage'],
    rows,
    numeric: [2, 3, 4],
  });
  const agents = r.sites.reduce((n, s) => n + s.dnspAgents, 0);
  const endpoints = r.sites.reduce((n, s) => n + s.endpoints, 0);
  const enabled = r.sites.filter((s) => s.dnspEnabled).length;
  const summary = `<p>${formatCount(enabled)} of ${formatCount(r.sites.length)} sites have DNS protection; ${formatCount(agents)} agents for ${formatCount(endpoints)} active endpoints (${percent(agents, endpoints)}).</p>`;
  return `<section id="dnsp"><h2>DNS protection coverage</h2>${summary}${figure('chart-dnsp', svg, caption, data)}</section>`;
}

const percent = (part: number, whole: number) =>
  whole > 0 ? `${Math.round((100 * part) / whole)} %` : '–';

function allSites(r: DailyReport): string {
  const sites = [...r.sites].sort((a, b) => a.name.localeCompare(b.name));
  // Keys are left to the seat CSV: at 5,000 sites they would be a sixth of the page.
  const rows = sites.map((s) => [
    s.name,
    s.endpoints,
    s.licenseType,
    s.expiryDate?.slice(0, 10) ?? '',
    s.dnspAgents,
    s.infected,
    s.blockedUrls,
  ]);
  return `<section id="sites"><h2>All sites</h2>${table({
    caption: `Every site on ${r.day}`,
    columns: ['Site', 'Endpoints', 'Licence', 'Expires', 'DNSP agents', 'Infected', 'Blocked URLs'],
    rows,
    numeric: [1, 4, 5, 6],
  })}</section>`;
}

/**
 * The daily page of one GSM: a self-contained HTML document (inline SVG charts, inline
 * style, no script), each chart beside the table of its numbers. Every value from the service
 * is escaped.
 *
 * @example
 * const html = await renderDailyPage(await collectDailyReport(reader, { gsm, day }));
 */
export async function renderDailyPage(r: DailyReport, seats?: SeatReport): Promise<string> {
  await loadCharts();
  const endpoints = r.sites.reduce((n, s) => n + s.endpoints, 0);
  const trial = r.sites
    .filter((s) => s.licenseType.toLowerCase() === 'trial')
    .reduce((n, s) => n + s.endpoints, 0);
  const infected = r.sites.reduce((n, s) => n + s.infected, 0);
  const title = `${r.gsmName}: Skywatch report for ${r.day}`;
  const totals = [
    ['Sites', r.sites.length],
    ['Active endpoints', endpoints],
    ['of which trial', trial],
    ['Infected now', infected],
    ['DNSP agents', r.sites.reduce((n, s) => n + s.dnspAgents, 0)],
  ]
    .map(([label, value]) => `<div>${escapeHtml(label)}<b>${formatCount(Number(value))}</b></div>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><header><h1>${escapeHtml(title)}</h1>
<p>GSM ${escapeHtml(r.gsm)}. Reports of ${escapeHtml(r.day)}${r.snapshotDate ? `, status snapshot of ${escapeHtml(r.snapshotDate)}` : ''}; generated ${escapeHtml(r.generatedAt)}.</p>
<div class="totals">${totals}</div></header>
<main>
${endpointsSection(r)}
${endpointTrendSection(r)}
${infectionSection(r)}
${alertSection(r.alerts, CHART_SITES)}
${blockedSection(r)}
${expirySection(r)}
${dnspSection(r)}
${seats ? seatSection(seats) : ''}
${allSites(r)}
</main></body></html>
`;
}
