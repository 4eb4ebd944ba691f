import * as z from '../../lib/zod.js';

/** Where the alerter keeps what it knows about one GSM (under the bucket's `state/`). */
export const Cursor = z.object({ modifiedSince: z.string() });

/** What the alerter last recorded about an endpoint: the state its last alert was about. */
export const EndpointRecord = z.object({
  infected: z.boolean(),
  threat: z.array(z.string()),
  /** LastChanged of the entry that made the record. */
  changedAt: z.string(),
});
export type EndpointRecord = z.infer<typeof EndpointRecord>;

/** The endpoint as an alert shows it, kept in the claim so a later run can send the alert. */
export const EndpointFacts = z.object({
  machineId: z.string(),
  hostName: z.string(),
  site: z.string(),
  ipAddress: z.string(),
  os: z.string(),
  threat: z.array(z.string()),
  activeThreats: z.number(),
  lastChanged: z.string(),
  lastSeen: z.string(),
});
export type EndpointFacts = z.infer<typeof EndpointFacts>;

/**
 * A pending transition of one endpoint's record, with the alert it owes. It exists from the
 * moment a run sees the transition until the record says so; while it exists nobody else
 * changes that endpoint's record. `owner` holds it until `leaseUntil`; after that any run may
 * take it over (see scan.ts for why that is safe).
 */
export const Claim = z.object({
  owner: z.string(),
  claimedAt: z.string(),
  leaseUntil: z.string(),
  /** The record once the transition is done. */
  record: EndpointRecord,
  /** The alert owed: none for a cleaned endpoint unless ALERT_ON_CLEAN is set. */
  alert: z.nullable(z.enum(['infection', 'infection-cleaned'])),
  endpoint: EndpointFacts,
});
export type Claim = z.infer<typeof Claim>;

export const cursorKey = (gsm: string) => `infection-alerter/${gsm}/cursor.json`;
/** A changes walk paused by the invocation's deadline (walk-state.ts). */
export const walkKey = (gsm: string) => `infection-alerter/${gsm}/walk.json`;
export const endpointKey = (gsm: string, machineId: string) =>
  `infection-alerter/${gsm}/endpoints/${encodeURIComponent(machineId)}.json`;
export const claimsPrefix = (gsm: string) => `infection-alerter/${gsm}/claims/`;
export const claimKey = (gsm: string, machineId: string) =>
  `${claimsPrefix(gsm)}${encodeURIComponent(machineId)}.json`;

/** The endpoint record a claim key belongs to. */
export function endpointKeyOfClaim(gsm: string, key: string): string {
  const machineId = decodeURIComponent(key.slice(claimsPrefix(gsm).length, -'.json'.length));
  return endpointKey(gsm, machineId);
}
