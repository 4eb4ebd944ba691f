import { GetBlockedURLsCountsResponse } from '../schemas/blocked-urls.js';
import { AddCustomersToCartRequest, AddCustomersToCartResponse } from '../schemas/cart.js';
import { UsageReportSiteDNSP } from '../schemas/reports.js';
import type { XmlModel } from './codec.js';

/** XML shapes of 4.8, 4.9 and 4.10 as docs/service-choices.md fixes them. */
export const DNSP_REPORT_XML: XmlModel<typeof UsageReportSiteDNSP> = {
  root: 'UsageReportSite_DNSP',
  schema: UsageReportSiteDNSP,
  items: { Sites: 'UsageReportSites_DNSP_SiteEntry' },
};

export const BLOCKED_URLS_XML: XmlModel<typeof GetBlockedURLsCountsResponse> = {
  root: 'GetBlockedURLsCountsResponse',
  schema: GetBlockedURLsCountsResponse,
  items: { DatedCounts: 'GetBlockedURLsCountsResponseDatedCount' },
};

export const CART_REQUEST_XML: XmlModel<typeof AddCustomersToCartRequest> = {
  root: 'AddCustomersToCartRequestServiceModel',
  schema: AddCustomersToCartRequest,
  items: {},
};

export const CART_RESPONSE_XML: XmlModel<typeof AddCustomersToCartResponse> = {
  root: 'AddCustomersToCartResponseServiceModel',
  schema: AddCustomersToCartResponse,
  items: {},
};
