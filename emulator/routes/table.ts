import { blockedUrlCounts } from './blocked-urls.js';
import { addCartCustomers } from './carts.js';
import type { Route } from './context.js';
import { dnspUsage, gsmUsage, sitesUsage } from './reports.js';
import { statusPage } from './status.js';

/** A path template such as `/api/status/site/{keyCode}` as a pattern and its parameter names. */
const p = (path: string) => ({
  pattern: new RegExp(`^/service${path.replace(/\{\w+\}/g, '([^/]+)')}/?$`),
  names: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ''),
});
const fixed = (scope: string) => () => scope;

/** Query parameters of each family of operations (spec section 4). */
const AGENT_PAGE = ['machineId', 'returnedInfo', 'modifiedSince', 'batchSize', 'continuation'];
const DNSP_PAGE = ['machineId', 'modifiedSince', 'batchSize', 'continuation'];
const REPORT = ['reportType', 'effectiveDate'];
const BLOCKED_URLS = ['includeDeactivated', 'includeHidden', 'startDate', 'endDate'];

/** Every operation of spec section 4 except the token endpoint, with its scope. */
export const ROUTES: Route[] = [
  {
    method: 'GET',
    ...p('/api/status/site/dnsp/{keyCode}'),
    operation: 'status.site.dnsp',
    scope: (base) => base,
    xml: false,
    query: DNSP_PAGE,
    handle: (ctx) => statusPage(ctx, { gsmLevel: false, dnsp: true }),
  },
  {
    method: 'GET',
    ...p('/api/status/site/{keyCode}'),
    operation: 'status.site',
    scope: (base) => base,
    xml: false,
    query: AGENT_PAGE,
    handle: (ctx) => statusPage(ctx, { gsmLevel: false, dnsp: false }),
  },
  {
    method: 'GET',
    ...p('/api/status/gsm/dnsp/{keyCode}'),
    operation: 'status.gsm.dnsp',
    scope: fixed('SkyStatus.GSM'),
    xml: false,
    query: DNSP_PAGE,
    handle: (ctx) => statusPage(ctx, { gsmLevel: true, dnsp: true }),
  },
  {
    method: 'GET',
    ...p('/api/status/gsm/{keyCode}'),
    operation: 'status.gsm',
    scope: fixed('SkyStatus.GSM'),
    xml: false,
    query: AGENT_PAGE,
    handle: (ctx) => statusPage(ctx, { gsmLevel: true, dnsp: false }),
  },
  {
    method: 'GET',
    ...p('/api/status/reporting/gsm/{gsmKey}/sites/{keyCode}/dnsp'),
    operation: 'report.site.dnsp',
    scope: fixed('SkyStatus.Reporting'),
    xml: true,
    query: REPORT,
    handle: dnspUsage,
  },
  {
    method: 'GET',
    ...p('/api/status/reporting/gsm/{gsmKey}/sites/{keyCode}'),
    operation: 'report.site',
    scope: fixed('SkyStatus.Reporting'),
    xml: false,
    query: REPORT,
    handle: (ctx) => sitesUsage(ctx, true),
  },
  {
    method: 'GET',
    ...p('/api/status/reporting/gsm/{gsmKey}/sites'),
    operation: 'report.sites',
    scope: fixed('SkyStatus.Reporting'),
    xml: false,
    query: REPORT,
    handle: (ctx) => sitesUsage(ctx, false),
  },
  {
    method: 'GET',
    ...p('/api/status/reporting/gsm/{gsmKey}'),
    operation: 'report.gsm',
    scope: fixed('SkyStatus.Reporting'),
    xml: false,
    query: REPORT,
    handle: gsmUsage,
  },
  {
    method: 'GET',
    ...p('/api/console/gsm/{gsmKey}/sites/{siteId}/blockedurls/counts'),
    operation: 'blockedUrls',
    scope: fixed('Console.GSM'),
    xml: true,
    query: BLOCKED_URLS,
    handle: blockedUrlCounts,
  },
  {
    method: 'POST',
    ...p('/api/ecom/shop/carts/{vendorOrderCode}/customers'),
    operation: 'cart.customers',
    scope: fixed('ECom.Shop'),
    xml: true,
    query: [],
    handle: (ctx) => addCartCustomers(ctx, /xml/i.test(String(ctx.headers['content-type']))),
  },
];
