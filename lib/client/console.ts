import { SCOPES } from '../auth/scopes.js';
import { GetBlockedURLsCountsResponse } from '../schemas/blocked-urls.js';
import { type AddCustomersToCartRequest, AddCustomersToCartResponse } from '../schemas/cart.js';
import { validateCartRequest } from '../validation/cart.js';
import { type DateInput, validateBlockedWindow } from '../validation/dates.js';
import {
  validateKeycode,
  validateSiteId,
  validateVendorOrderCode,
} from '../validation/identifiers.js';
import { BLOCKED_URLS_XML, CART_REQUEST_XML, CART_RESPONSE_XML } from '../xml/models.js';
import type { CallOptions, ClientContext, Format } from './context.js';
import { execute } from './execute.js';
import { operationPath } from './path.js';

/** Options of 4.9. */
export interface BlockedUrlOptions extends CallOptions {
  /** @default false */
  includeDeactivated?: boolean;
  /** @default false */
  includeHidden?: boolean;
  /** @default endDate − 7 days (computed by the service) */
  startDate?: DateInput;
  /** @default now (computed by the service) */
  endDate?: DateInput;
  /** @default the client's format */
  format?: Format;
}

/**
 * 4.9: per-day blocked-URL counts of a site, newest day first. The window is validated first:
 * start before end, at most 30 days, start at most 90 days ago (limits configurable).
 *
 * @example
 * const { DatedCounts } = await blockedUrlCounts(ctx, gsmKey, siteId, { startDate: '2026-06-01' });
 */
export async function blockedUrlCounts(
  ctx: ClientContext,
  gsmKey: string,
  siteId: string,
  options: BlockedUrlOptions = {},
): Promise<GetBlockedURLsCountsResponse> {
  const gsm = validateKeycode(gsmKey, 'gsmKey');
  const id = validateSiteId(siteId);
  const window = validateBlockedWindow(options, ctx.clock.now(), ctx.blockedUrlLimits);
  const query = {
    ...(options.includeDeactivated === undefined
      ? {}
      : { includeDeactivated: Boolean(options.includeDeactivated) }),
    ...(options.includeHidden === undefined
      ? {}
      : { includeHidden: Boolean(options.includeHidden) }),
    ...window,
  };
  const xml =
    (options.format ?? ctx.format) === 'xml' ? { xml: { response: BLOCKED_URLS_XML } } : {};
  return execute(ctx, {
    method: 'GET',
    path: operationPath`/api/console/gsm/${gsm}/sites/${id}/blockedurls/counts`,
    query,
    scope: SCOPES.console,
    schema: GetBlockedURLsCountsResponse,
    model: 'GetBlockedURLsCountsResponse',
    ...xml,
    ...(options.deadline === undefined ? {} : { call: { deadline: options.deadline } }),
  });
}

/** Options of 4.10. */
export interface CartOptions extends CallOptions {
  /** Representation of request and answer. @default the client's format */
  format?: Format;
}

/**
 * 4.10: sets the Shipping (and, for reseller carts, Reseller) customer of a cart. Idempotent on
 * the service side, but retried only after connect errors (see docs/client.md).
 *
 * @example
 * const { Billing, Shipping } = await addCartCustomers(ctx, 'SO-1', { Shipping: customer });
 */
export async function addCartCustomers(
  ctx: ClientContext,
  vendorOrderCode: string,
  body: AddCustomersToCartRequest,
  options: CartOptions = {},
): Promise<AddCustomersToCartResponse> {
  const code = validateVendorOrderCode(vendorOrderCode);
  validateCartRequest(body);
  const xml =
    (options.format ?? ctx.format) === 'xml'
      ? { xml: { response: CART_RESPONSE_XML, request: CART_REQUEST_XML } }
      : {};
  return execute(ctx, {
    method: 'POST',
    path: operationPath`/api/ecom/shop/carts/${code}/customers`,
    scope: SCOPES.shop,
    schema: AddCustomersToCartResponse,
    model: 'AddCustomersToCartResponseServiceModel',
    body,
    ...xml,
    ...(options.deadline === undefined ? {} : { call: { deadline: options.deadline } }),
  });
}
