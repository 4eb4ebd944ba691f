import { SCOPES } from '../auth/scopes.js';
import { SchemaError } from '../errors/errors.js';
import {
  UsageReportGSM,
  UsageReportSite,
  UsageReportSiteDNSP,
  UsageReportSites,
} from '../schemas/reports.js';
import { type DateInput, validateEffectiveDate } from '../validation/dates.js';
import {
  DNSP_REPORT_TYPES,
  type DnspReportType,
  GSM_REPORT_TYPES,
  type GsmReportType,
  validateKeycode,
  validateReportType,
} from '../validation/identifiers.js';
import { DNSP_REPORT_XML } from '../xml/models.js';
import type { CallOptions, ClientContext, Format } from './context.js';
import { execute } from './execute.js';
import { operationPath } from './path.js';
import { keepServiceValue, serviceValue } from './service-value.js';

/** Options of 4.5, 4.6 and 4.7. */
export interface UsageReportOptions extends CallOptions {
  /** @default 'EndpointsSeenInLast30Days' (the service's default; not sent) */
  reportType?: GsmReportType;
  /** Day the report refers to; at most the day before yesterday UTC. @default the latest report */
  effectiveDate?: DateInput;
}

/** Options of 4.8. */
export interface DnspReportOptions extends CallOptions {
  /** @default 'DevicesSeenInLast30Days' (the service's default; not sent) */
  reportType?: DnspReportType;
  effectiveDate?: DateInput;
  /** @default the client's format */
  format?: Format;
}

function reportQuery(
  ctx: ClientContext,
  options: { reportType?: string; effectiveDate?: DateInput },
  types: readonly string[],
) {
  return {
    ...(options.reportType === undefined
      ? {}
      : { reportType: validateReportType(options.reportType, types) }),
    ...(options.effectiveDate === undefined
      ? {}
      : { effectiveDate: validateEffectiveDate(options.effectiveDate, ctx.clock.now()) }),
  };
}

function call(options: CallOptions) {
  return options.deadline === undefined ? {} : { call: { deadline: options.deadline } };
}

/**
 * 4.5: GSM-level usage summary.
 *
 * @example
 * const r = await gsmUsageReport(ctx, gsmKey, { reportType: 'ActiveEndpoints' });
 */
export async function gsmUsageReport(
  ctx: ClientContext,
  gsmKey: string,
  options: UsageReportOptions = {},
): Promise<UsageReportGSM> {
  const key = validateKeycode(gsmKey, 'gsmKey');
  const query = reportQuery(ctx, options, GSM_REPORT_TYPES);
  const report = await execute(ctx, {
    method: 'GET',
    path: operationPath`/api/status/reporting/gsm/${key}`,
    query,
    scope: SCOPES.reporting,
    schema: UsageReportGSM,
    model: 'UsageReportGSM',
    ...call(options),
  });
  // The one field a GSM report cannot do without: the day it is about.
  const day = report.ReportInfo?.EffectiveDate;
  if (day === undefined) {
    throw new SchemaError(
      'Response UsageReportGSM names no usable ReportInfo.EffectiveDate',
      'ReportInfo.EffectiveDate',
    );
  }
  return keepServiceValue(
    { ...report, ReportInfo: { ...report.ReportInfo, EffectiveDate: day } },
    serviceValue(report),
  );
}

/**
 * 4.6: site-level usage summary of every site of a GSM.
 *
 * @example
 * const { Sites } = await sitesUsageReport(ctx, gsmKey);
 */
export async function sitesUsageReport(
  ctx: ClientContext,
  gsmKey: string,
  options: UsageReportOptions = {},
): Promise<UsageReportSites> {
  const key = validateKeycode(gsmKey, 'gsmKey');
  const query = reportQuery(ctx, options, GSM_REPORT_TYPES);
  return execute(ctx, {
    method: 'GET',
    path: operationPath`/api/status/reporting/gsm/${key}/sites`,
    query,
    scope: SCOPES.reporting,
    schema: UsageReportSites,
    model: 'UsageReportSites',
    ...call(options),
  });
}

/**
 * 4.7: usage summary of one site. The spec does not show the shape: typed as 2.5 narrowed to
 * one site, unknown fields passed through.
 *
 * @example
 * const r = await siteUsageReport(ctx, gsmKey, siteKey);
 */
export async function siteUsageReport(
  ctx: ClientContext,
  gsmKey: string,
  keyCode: string,
  options: UsageReportOptions = {},
): Promise<UsageReportSite> {
  const gsm = validateKeycode(gsmKey, 'gsmKey');
  const site = validateKeycode(keyCode, 'keyCode');
  const query = reportQuery(ctx, options, GSM_REPORT_TYPES);
  return execute(ctx, {
    method: 'GET',
    path: operationPath`/api/status/reporting/gsm/${gsm}/sites/${site}`,
    query,
    scope: SCOPES.reporting,
    schema: UsageReportSite,
    model: 'UsageReportSite',
    ...call(options),
  });
}

/**
 * 4.8: DNSP usage report of one site, in JSON or XML.
 *
 * @example
 * const r = await siteDnspUsageReport(ctx, gsmKey, siteKey, { format: 'xml' });
 */
export async function siteDnspUsageReport(
  ctx: ClientContext,
  gsmKey: string,
  keyCode: string,
  options: DnspReportOptions = {},
): Promise<UsageReportSiteDNSP> {
  const gsm = validateKeycode(gsmKey, 'gsmKey');
  const site = validateKeycode(keyCode, 'keyCode');
  const query = reportQuery(ctx, options, DNSP_REPORT_TYPES);
  const xml =
    (options.format ?? ctx.format) === 'xml' ? { xml: { response: DNSP_REPORT_XML } } : {};
  return execute(ctx, {
    method: 'GET',
    path: operationPath`/api/status/reporting/gsm/${gsm}/sites/${site}/dnsp`,
    query,
    scope: SCOPES.reporting,
    schema: UsageReportSiteDNSP,
    model: 'UsageReportSite_DNSP',
    ...xml,
    ...call(options),
  });
}
