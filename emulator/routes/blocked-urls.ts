import { type DayCounts, selected } from '../data/blocked-urls.js';
import { DAY_MS, isoSeconds } from '../data/time-format.js';
import { booleanParam, keycodeParam, parseInstant, uuidParam } from '../http/params.js';
import { invalidParameter, notFound } from '../http/problem.js';
import { jsonReply, type Reply, XML_TYPE } from '../http/respond.js';
import { toXml } from '../http/xml.js';
import type { RouteContext } from './context.js';

const MAX_RANGE_MS = 30 * DAY_MS;

/** 4.9 GET /api/console/gsm/{gsmKey}/sites/{siteId}/blockedurls/counts */
export function blockedUrlCounts(ctx: RouteContext): Reply {
  const { state, query } = ctx;
  const gsmKey = keycodeParam('gsmKey', ctx.params[0] ?? '');
  const siteId = uuidParam('siteId', ctx.params[1] ?? '');
  const gsm = state.data.gsm(gsmKey);
  if (!gsm) throw notFound(`no GSM console has the keycode ${gsmKey}`);
  const site = state.data.siteById(siteId);
  if (!site || site.gsmIndex !== gsm.index)
    throw notFound(`the GSM ${gsm.key} has no site with the id ${siteId}`);
  const includeDeactivated = booleanParam(query, 'includeDeactivated');
  const includeHidden = booleanParam(query, 'includeHidden');

  const now = state.clock.now();
  const endRaw = query.get('endDate');
  const startRaw = query.get('startDate');
  // Data ends now: a later endDate reads as now.
  const end = Math.min(now, endRaw === undefined ? now : parseInstant('endDate', endRaw));
  const start = startRaw === undefined ? end - 7 * DAY_MS : parseInstant('startDate', startRaw);
  if (start >= end) throw invalidParameter('startDate', 'must be before endDate');
  if (end - start > MAX_RANGE_MS)
    throw invalidParameter('startDate', 'must be at most 30 days before endDate');
  const historyDays = state.options.blockedUrlHistoryDays;
  if (start < now - historyDays * DAY_MS) {
    throw invalidParameter(
      'startDate',
      `must be within the last ${historyDays} days: older data is not kept`,
    );
  }

  // First full day on or after start; the day of end counts only what happened before end.
  const firstDay = Math.ceil(start / DAY_MS);
  const lastDay = Math.ceil(end / DAY_MS) - 1;
  const days: number[] = [];
  for (let day = lastDay; day >= firstDay; day--) days.push(day);
  const counts = state.blockedUrls.range(site, days, end);
  const dated = days.map((day, i) => ({
    Date: isoSeconds(day * DAY_MS),
    Count: selected(counts[i] as DayCounts, includeDeactivated, includeHidden),
  }));
  const body = {
    IncludeDeactivated: includeDeactivated,
    IncludeHidden: includeHidden,
    StartDate: isoSeconds(start),
    EndDate: isoSeconds(end),
    DatedCounts: dated,
  };
  if (!ctx.xml) return jsonReply(body);
  return {
    status: 200,
    contentType: XML_TYPE,
    body: toXml('GetBlockedURLsCountsResponse', body, {
      DatedCounts: 'GetBlockedURLsCountsResponseDatedCount',
    }),
  };
}
