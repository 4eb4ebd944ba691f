import type { SSMClient } from '@aws-sdk/client-ssm';
import { type MutesDocument, NO_MUTES, parseMutesText } from '../alerts/index.js';
import { DocumentParameter, type DocumentParameterOptions } from './document-parameter.js';

/**
 * The maintenance windows in their SSM parameter (docs/operations.md, "Maintenance windows").
 * Unreadable or invalid, no window holds anything: an alert is never lost to a bad document,
 * at the price of alerts a window meant to hold (`onFallback` says so).
 *
 * @example
 * const doc = await mutesParameter(ssmClient(), env.ALERT_MUTES_PARAMETER).document();
 */
export function mutesParameter(
  ssm: SSMClient,
  name: string,
  options: DocumentParameterOptions = {},
): DocumentParameter<MutesDocument> {
  return new DocumentParameter(ssm, name, { parse: parseMutesText, fallback: NO_MUTES }, options);
}
