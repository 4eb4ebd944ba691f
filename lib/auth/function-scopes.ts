import { baseUrlScope, SCOPES } from './scopes.js';

/** The client's operations, by method name of SkywatchClient. */
export type OperationMethod =
  | 'siteAgentStatus'
  | 'siteDnspStatus'
  | 'gsmAgentStatus'
  | 'gsmDnspStatus'
  | 'gsmUsageReport'
  | 'sitesUsageReport'
  | 'siteUsageReport'
  | 'siteDnspUsageReport'
  | 'blockedUrlCounts'
  | 'addCartCustomers';

/** The scope each operation needs (docs/service-choices.md); `{base_url}` is the base URL. */
export const OPERATION_SCOPES: Readonly<Record<OperationMethod, string>> = {
  siteAgentStatus: '{base_url}',
  siteDnspStatus: '{base_url}',
  gsmAgentStatus: SCOPES.gsm,
  gsmDnspStatus: SCOPES.gsm,
  gsmUsageReport: SCOPES.reporting,
  sitesUsageReport: SCOPES.reporting,
  siteUsageReport: SCOPES.reporting,
  siteDnspUsageReport: SCOPES.reporting,
  blockedUrlCounts: SCOPES.console,
  addCartCustomers: SCOPES.shop,
};

/** The daily archive's operations: its reports, then its status walks and DNSP reports. */
const DAILY_ARCHIVE = [
  'gsmUsageReport',
  'sitesUsageReport',
  'gsmAgentStatus',
  'gsmDnspStatus',
  'siteAgentStatus',
  'siteDnspStatus',
  'siteDnspUsageReport',
] as const satisfies readonly OperationMethod[];

/**
 * The operations each function (a folder of `functions/`) calls. The one table of what a
 * deployment's token must carry; test/lib/function-scopes.test.ts fails when a function calls
 * an operation the table does not list.
 */
export const FUNCTION_OPERATIONS = {
  'token-refresher': [],
  'report-fetcher': DAILY_ARCHIVE,
  // The archive worker runs the report fetcher's day job, from the task it stopped at.
  'archive-worker': DAILY_ARCHIVE,
  'blocked-url-alerter': ['sitesUsageReport', 'blockedUrlCounts'],
  'infection-alerter': ['gsmAgentStatus'],
  'cart-customer-webhook': ['addCartCustomers'],
  'report-builder': ['blockedUrlCounts'],
  'alert-notifier': [],
  // The report links' key maker (a deploy-time custom resource) never calls the service.
  'page-link-key': [],
} as const satisfies Record<string, readonly OperationMethod[]>;

export type FunctionName = keyof typeof FUNCTION_OPERATIONS;

/**
 * The scopes a function's token needs, the base URL scope made concrete.
 *
 * @example
 * functionScopes('infection-alerter', 'https://h/service'); // ['SkyStatus.GSM']
 */
export function functionScopes(fn: FunctionName, baseUrl: string): string[] {
  const ops: readonly OperationMethod[] = FUNCTION_OPERATIONS[fn];
  const scopes = ops.map((op) => OPERATION_SCOPES[op]);
  return [...new Set(scopes)].map((s) => (s === '{base_url}' ? baseUrlScope(baseUrl) : s));
}
