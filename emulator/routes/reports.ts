import type { Gsm, Site } from '../data/dataset.js';
import {
  DNSP_REPORT_TYPES,
  dnspReport,
  GSM_REPORT_TYPES,
  gsmReport,
  sitesReport,
} from '../data/reports.js';
import { DAY_MS } from '../data/time-format.js';
import { keycodeParam, parseInstant } from '../http/params.js';
import { invalidParameter, notFound } from '../http/problem.js';
import { jsonReply, type Reply, XML_TYPE } from '../http/respond.js';
import { toXml } from '../http/xml.js';
import type { RouteContext } from './context.js';

function gsmOf(ctx: RouteContext): Gsm {
  const key = keycodeParam('gsmKey', ctx.params[0] ?? '');
  const gsm = ctx.state.data.gsm(key);
  if (!gsm) throw notFound(`no GSM console has the keycode ${key}`);
  return gsm;
}

function siteOf(ctx: RouteContext, gsm: Gsm): Site {
  const key = keycodeParam('keyCode', ctx.params[1] ?? '');
  const site = ctx.state.data.site(key);
  if (!site || site.gsmIndex !== gsm.index)
    throw notFound(`the GSM ${gsm.key} has no site with the keycode ${key}`);
  return site;
}

function reportType(ctx: RouteContext, allowed: readonly string[], fallback: string): string {
  const value = ctx.query.get('reportType') ?? fallback;
  if (!allowed.includes(value)) {
    throw invalidParameter(
      'reportType',
      `must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}

/**
 * The report day (days since epoch). Data for a day is produced during the following day, so
 * the newest report is the day before yesterday (UTC), which is also the default.
 */
function reportDay(ctx: RouteContext): number {
  const today = Math.floor(ctx.state.clock.now() / DAY_MS);
  const newest = today - 2;
  const raw = ctx.query.get('effectiveDate');
  if (raw === undefined) return newest;
  const day = Math.floor(parseInstant('effectiveDate', raw) / DAY_MS);
  if (day > newest) {
    throw invalidParameter(
      'effectiveDate',
      'must be earlier than yesterday (UTC): reports are produced the following day',
    );
  }
  if (day < today - ctx.state.options.reportRetentionDays) {
    throw notFound(
      `no report is kept for ${raw}: reports are kept ${ctx.state.options.reportRetentionDays} days`,
    );
  }
  return day;
}

/** 4.5 GET /api/status/reporting/gsm/{gsmKey} */
export function gsmUsage(ctx: RouteContext): Reply {
  const gsm = gsmOf(ctx);
  const type = reportType(ctx, GSM_REPORT_TYPES, 'EndpointsSeenInLast30Days');
  return jsonReply(gsmReport(ctx.state.data, gsm, type, reportDay(ctx)));
}

/** 4.6 GET …/gsm/{gsmKey}/sites and 4.7 GET …/gsm/{gsmKey}/sites/{keyCode} */
export function sitesUsage(ctx: RouteContext, single: boolean): Reply {
  const gsm = gsmOf(ctx);
  const site = single ? siteOf(ctx, gsm) : undefined;
  const type = reportType(ctx, GSM_REPORT_TYPES, 'EndpointsSeenInLast30Days');
  return jsonReply(sitesReport(ctx.state.data, gsm, type, reportDay(ctx), site));
}

/** 4.8 GET …/gsm/{gsmKey}/sites/{keyCode}/dnsp, JSON or XML. */
export function dnspUsage(ctx: RouteContext): Reply {
  const gsm = gsmOf(ctx);
  const site = siteOf(ctx, gsm);
  const type = reportType(ctx, DNSP_REPORT_TYPES, 'DevicesSeenInLast30Days');
  const report = dnspReport(ctx.state.data, gsm, site, type, reportDay(ctx));
  if (!ctx.xml) return jsonReply(report);
  return {
    status: 200,
    contentType: XML_TYPE,
    body: toXml('UsageReportSite_DNSP', report, { Sites: 'UsageReportSites_DNSP_SiteEntry' }),
  };
}
