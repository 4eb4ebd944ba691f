import { ValidationError } from '../errors/errors.js';
import { AGENT_STATUS_GROUP_NAMES, type AgentStatusGroup } from '../schemas/agent-status.js';
import { isVisiblyBlank } from './text.js';

const KEYCODE = /^[A-Z0-9]{4}(-[A-Z0-9]{4}){4}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a keycode and returns it in upper case (the service matches case-insensitively).
 *
 * @example
 * validateKeycode('abcd-1234-efgh-5678-ijkl', 'keyCode'); // 'ABCD-1234-EFGH-5678-IJKL'
 */
export function validateKeycode(value: string, field = 'keyCode'): string {
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (!KEYCODE.test(upper)) {
    throw new ValidationError(
      field,
      'must be five groups of four A-Z/0-9 characters joined by "-"',
    );
  }
  return upper;
}

/**
 * Checks a MachineID: three non-empty segments joined by `:::`, no `:` inside a segment.
 *
 * @example
 * validateMachineId('A:::B:::C'); // 'A:::B:::C'
 */
export function validateMachineId(value: string, field = 'machineId'): string {
  const parts = typeof value === 'string' ? value.split(':::') : [];
  if (parts.length !== 3 || parts.some((p) => p.length === 0 || p.includes(':'))) {
    throw new ValidationError(
      field,
      'must be three non-empty segments joined by ":::" with no ":" inside a segment',
    );
  }
  return value;
}

/**
 * Checks a siteId is a UUID and returns it in lower case.
 *
 * @example
 * validateSiteId('56E89D1D-F109-4B63-B598-01B88CD1DE3F');
 */
export function validateSiteId(value: string, field = 'siteId'): string {
  if (typeof value !== 'string' || !UUID.test(value)) {
    throw new ValidationError(field, 'must be a UUID (8-4-4-4-12 hexadecimal digits)');
  }
  return value.toLowerCase();
}

/**
 * Checks batchSize is an integer from 1 to 1000.
 *
 * @example
 * validateBatchSize(500); // 500
 */
export function validateBatchSize(value: number, field = 'batchSize'): number {
  if (!Number.isInteger(value) || value < 1 || value > 1000) {
    throw new ValidationError(field, 'must be an integer from 1 to 1000');
  }
  return value;
}

/**
 * Checks returnedInfo group names (case-sensitive) and joins them for the query.
 *
 * @example
 * validateReturnedInfo(['BasicInfo', 'ExtendedInfo']); // 'BasicInfo,ExtendedInfo'
 */
export function validateReturnedInfo(groups: readonly string[], field = 'returnedInfo'): string {
  if (!Array.isArray(groups) || groups.length === 0) {
    throw new ValidationError(field, 'must name at least one group');
  }
  for (const g of groups) {
    if (!AGENT_STATUS_GROUP_NAMES.includes(g as AgentStatusGroup)) {
      throw new ValidationError(
        field,
        `"${g}" is not a group; use ${AGENT_STATUS_GROUP_NAMES.join(', ')}`,
      );
    }
  }
  return [...new Set(groups)].join(',');
}

export const GSM_REPORT_TYPES = [
  'ActiveEndpoints',
  'ActiveEndpointsWithoutHidden',
  'EndpointsSeenInLast30Days',
] as const;
export type GsmReportType = (typeof GSM_REPORT_TYPES)[number];
export const DNSP_REPORT_TYPES = ['DevicesSeen', 'DevicesSeenInLast30Days'] as const;
export type DnspReportType = (typeof DNSP_REPORT_TYPES)[number];

/**
 * Checks a reportType against the values of its operation (case-sensitive).
 *
 * @example
 * validateReportType('DevicesSeen', DNSP_REPORT_TYPES);
 */
export function validateReportType<T extends string>(
  value: string,
  allowed: readonly T[],
  field = 'reportType',
): T {
  if (!allowed.includes(value as T)) {
    throw new ValidationError(field, `must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/**
 * Checks a cart's vendorOrderCode, a path segment of 4.10 the spec leaves free-form: 1–256
 * characters, not `.` or `..` (a URL parser would turn either into a move up the path, and the
 * customers would be posted to another resource), no control characters, not blank.
 *
 * @example
 * validateVendorOrderCode('SO-205544-1'); // 'SO-205544-1'
 */
export function validateVendorOrderCode(value: string, field = 'vendorOrderCode'): string {
  if (
    typeof value !== 'string' ||
    value.length === 0 ||
    value.length > 256 ||
    value === '.' ||
    value === '..' ||
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
    /[\u0000-\u001f\u007f-\u009f]/.test(value) ||
    isVisiblyBlank(value)
  ) {
    throw new ValidationError(
      field,
      'must be 1–256 characters, not "." or "..", without control characters and not blank',
    );
  }
  return value;
}
