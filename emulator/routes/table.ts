import { blockedUrlCounts } from './blocked-urls.js';
import { addCartCustomers } from './carts.js';
import type { Route } from './context.js';
import { dnspUsage, gsmUsage, sitesUsage } from './reports.js';
import { statusPage } from './status.js';

const SEG = '([^/]+)';
const p = (path: string) => new RegExp(`^/service${path.replaceAll('{}', SEG)}/?$`);
const fixed = (scope: string) => () => scope;

/** Every operation of spec section 4 except the token endpoint, with its scope. */
export const ROUTES: Route[] = [
  {
    method: 'GET',
    pattern: p('/api/status/site/dnsp/{}'),
    operation: 'status.site.dnsp',
    scope: (base) => base,
    xml: false,
    handle: (ctx) => statusPage(ctx, { gsmLevel: false, dnsp: true }),
  },
  {
    method: 'GET',
    pattern: p('/api/status/site/{}'),
    operation: 'status.site',
    scope: (base) => base,
    xml: false,
    handle: (ctx) => statusPage(ctx, { gsmLevel: false, dnsp: false }),
  },
  {
    method: 'GET',
    pattern: p('/api/status/gsm/dnsp/{}'),
    operation: 'status.gsm.dnsp',
    scope: fixed('SkyStatus.GSM'),
    xml: false,
    handle: (ctx) => statusPage(ctx, { gsmLevel: true, dnsp: true }),
  },
  {
    method: 'GET',
    pattern: p('/api/status/gsm/{}'),
    operation: 'status.gsm',
    scope: fixed('SkyStatus.GSM'),
    xml: false,
    handle: (ctx) => statusPage(ctx, { gsmLevel: true, dnsp: false }),
  },
  {
    method: 'GET',
    pattern: p('/api/status/reporting/gsm/{}/sites/{}/dnsp'),
    operation: 'report.site.dnsp',
    scope: fixed('SkyStatus.Reporting'),
    xml: true,
    handle: dnspUsage,
  },
  {
    method: 'GET',
    pattern: p('/api/status/reporting/gsm/{}/sites/{}'),
    operation: 'report.site',
    scope: fixed('SkyStatus.Reporting'),
    xml: false,
    handle: (ctx) => sitesUsage(ctx, true),
  },
  {
    method: 'GET',
    pattern: p('/api/status/reporting/gsm/{}/sites'),
    operation: 'report.sites',
    scope: fixed('SkyStatus.Reporting'),
    xml: false,
    handle: (ctx) => sitesUsage(ctx, false),
  },
  {
    method: 'GET',
    pattern: p('/api/status/reporting/gsm/{}'),
    operation: 'report.gsm',
    scope: fixed('SkyStatus.Reporting'),
    xml: false,
    handle: gsmUsage,
  },
  {
    method: 'GET',
    pattern: p('/api/console/gsm/{}/sites/{}/blockedurls/counts'),
    operation: 'blockedUrls',
    scope: fixed('Console.GSM'),
    xml: true,
    handle: blockedUrlCounts,
  },
  {
    method: 'POST',
    pattern: p('/api/ecom/shop/carts/{}/customers'),
    operation: 'cart.customers',
    scope: fixed('ECom.Shop'),
    xml: true,
    handle: (ctx) => addCartCustomers(ctx, /xml/i.test(String(ctx.headers['content-type']))),
  },
];
