import type { Paginator } from '../paging/paginator.js';
import type { AgentStatus } from '../schemas/agent-status.js';
import type { GetBlockedURLsCountsResponse } from '../schemas/blocked-urls.js';
import type { AddCustomersToCartRequest, AddCustomersToCartResponse } from '../schemas/cart.js';
import type { DNSPAgentStatus } from '../schemas/dnsp-status.js';
import type {
  UsageReportGSM,
  UsageReportSite,
  UsageReportSiteDNSP,
  UsageReportSites,
} from '../schemas/reports.js';
import type * as z from '../zod.js';
import {
  addCartCustomers,
  type BlockedUrlOptions,
  blockedUrlCounts,
  type CartOptions,
} from './console.js';
import type { CallOptions, ClientContext } from './context.js';
import { type HealthAnswer, ping, type ServiceInformation, serviceVersion } from './health.js';
import { neededFields } from './read.js';
import {
  type DnspReportOptions,
  gsmUsageReport,
  siteDnspUsageReport,
  sitesUsageReport,
  siteUsageReport,
  type UsageReportOptions,
} from './reports.js';
import {
  type AgentStatusOptions,
  agentStatus,
  type DnspStatusOptions,
  dnspStatus,
  type StatusOf,
  statusAsSent,
} from './status.js';

/**
 * The typed operations of 4.1–4.10. 4.11, the token endpoint, is not a method here: the token
 * source does it (`TokenManager`, over `requestToken`), and `SkywatchClient` builds one.
 */
export class ClientOperations {
  constructor(protected readonly ctx: ClientContext) {}

  /** GET /api/health/ping, unauthenticated: resolves when the service answers 2xx. */
  ping(options?: CallOptions): Promise<HealthAnswer<undefined>> {
    return ping(this.ctx, options);
  }

  /** GET /api/health/version, unauthenticated: the service's name and version. */
  serviceVersion(options?: CallOptions): Promise<HealthAnswer<ServiceInformation>> {
    return serviceVersion(this.ctx, options);
  }

  /**
   * The fields a caller truly needs from a delivered entry or answer, typed and normalised by
   * `needs` (lib/schemas/needs.ts), or undefined when one is missing: skip the entry; the
   * client has already counted it through `onSurprise` (rule `needed`).
   *
   * @example
   * const endpoint = client.needs(entry, AlertableEndpoint, 'AgentStatus');
   * if (!endpoint) continue;
   */
  needs<S extends z.core.$ZodType>(
    value: unknown,
    needs: S,
    model: string,
  ): z.output<S> | undefined {
    return neededFields(this.ctx, value, needs, model);
  }

  /** 4.1 GET /api/status/site/{keyCode}: agent status of a site's endpoints (paged). */
  siteAgentStatus(keyCode: string, options?: AgentStatusOptions): Paginator<AgentStatus> {
    return agentStatus(this.ctx, 'site', keyCode, options);
  }

  /** 4.2 GET /api/status/site/dnsp/{keyCode}: DNSP status of a site's endpoints (paged). */
  siteDnspStatus(keyCode: string, options?: DnspStatusOptions): Paginator<DNSPAgentStatus> {
    return dnspStatus(this.ctx, 'site', keyCode, options);
  }

  /** 4.3 GET /api/status/gsm/{keyCode}: agent status of every endpoint of a GSM (paged). */
  gsmAgentStatus(keyCode: string, options?: AgentStatusOptions): Paginator<AgentStatus> {
    return agentStatus(this.ctx, 'gsm', keyCode, options);
  }

  /** 4.4 GET /api/status/gsm/dnsp/{keyCode}: DNSP status of every endpoint of a GSM (paged). */
  gsmDnspStatus(keyCode: string, options?: DnspStatusOptions): Paginator<DNSPAgentStatus> {
    return dnspStatus(this.ctx, 'gsm', keyCode, options);
  }

  /**
   * 4.1–4.4, as `of` says, with each entry as the service sent it: the envelope is checked,
   * the entries are not read. For keeping pages whole (`entryTexts()`), never for reading them.
   */
  statusAsSent(of: StatusOf, options?: AgentStatusOptions): Paginator<unknown> {
    return statusAsSent(this.ctx, of, options);
  }

  /** 4.5 GET /api/status/reporting/gsm/{gsmKey}: GSM-level usage summary. */
  gsmUsageReport(gsmKey: string, options?: UsageReportOptions): Promise<UsageReportGSM> {
    return gsmUsageReport(this.ctx, gsmKey, options);
  }

  /** 4.6 GET /api/status/reporting/gsm/{gsmKey}/sites: usage summary per site. */
  sitesUsageReport(gsmKey: string, options?: UsageReportOptions): Promise<UsageReportSites> {
    return sitesUsageReport(this.ctx, gsmKey, options);
  }

  /** 4.7 GET /api/status/reporting/gsm/{gsmKey}/sites/{keyCode}: one site's usage summary. */
  siteUsageReport(
    gsmKey: string,
    keyCode: string,
    options?: UsageReportOptions,
  ): Promise<UsageReportSite> {
    return siteUsageReport(this.ctx, gsmKey, keyCode, options);
  }

  /** 4.8 GET /api/status/reporting/gsm/{gsmKey}/sites/{keyCode}/dnsp: DNSP usage of a site. */
  siteDnspUsageReport(
    gsmKey: string,
    keyCode: string,
    options?: DnspReportOptions,
  ): Promise<UsageReportSiteDNSP> {
    return siteDnspUsageReport(this.ctx, gsmKey, keyCode, options);
  }

  /** 4.9 GET /api/console/gsm/{gsmKey}/sites/{siteId}/blockedurls/counts. */
  blockedUrlCounts(
    gsmKey: string,
    siteId: string,
    options?: BlockedUrlOptions,
  ): Promise<GetBlockedURLsCountsResponse> {
    return blockedUrlCounts(this.ctx, gsmKey, siteId, options);
  }

  /** 4.10 POST /api/ecom/shop/carts/{vendorOrderCode}/customers. */
  addCartCustomers(
    vendorOrderCode: string,
    body: AddCustomersToCartRequest,
    options?: CartOptions,
  ): Promise<AddCustomersToCartResponse> {
    return addCartCustomers(this.ctx, vendorOrderCode, body, options);
  }
}
