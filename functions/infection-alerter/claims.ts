import { ConflictError, type StateStore } from '../../lib/aws/index.js';
import {
  Claim,
  claimKey,
  claimsPrefix,
  EndpointRecord,
  endpointKey,
  endpointKeyOfClaim,
} from './records.js';

/** Who is claiming, for how long, and by which clock. */
export interface Lease {
  owner: string;
  leaseMs: number;
  now: () => number;
}

/** A claim this run holds: the stored claim, its ETag, and the record version it moves from. */
export interface HeldClaim {
  key: string;
  etag: string;
  claim: Claim;
  recordKey: string;
  /** ETag of the endpoint record the transition applies to; null when there is none yet. */
  recordEtag: string | null;
}

/** What became of one observed transition. */
export type Offer =
  | { kind: 'claimed'; held: HeldClaim }
  /** Nothing left for this run: the record already says so, or another run's claim does. */
  | { kind: 'handed-over' }
  /** Another run's claim is for the opposite change: this observation is not yet anyone's. */
  | { kind: 'unsettled' };

type Stored = { value: EndpointRecord; etag: string } | undefined;

const isConflict = (error: unknown) => error instanceof ConflictError;

/** Whether `next` is a change the alerter has to record (and maybe alert) against `current`. */
export function isTransition(current: EndpointRecord | undefined, next: EndpointRecord): boolean {
  return current ? current.infected !== next.infected : next.infected;
}

function stamp(lease: Lease) {
  const now = lease.now();
  return {
    owner: lease.owner,
    claimedAt: new Date(now).toISOString(),
    leaseUntil: new Date(now + lease.leaseMs).toISOString(),
  };
}

/**
 * Claims the transition of one endpoint to `wanted.record`, seen against `current`. Creating
 * the claim (If-None-Match) is the lock on the endpoint's record: only a claim's holder writes
 * the record, and a holder writes it before deleting its claim. So once our create succeeded
 * the record can no longer move, and reading it once more tells whether a claim that completed
 * between our read and our create already recorded this change.
 */
export async function claimTransition(
  state: StateStore,
  gsm: string,
  lease: Lease,
  current: Stored,
  wanted: Pick<Claim, 'record' | 'alert' | 'endpoint'>,
): Promise<Offer> {
  const key = claimKey(gsm, wanted.endpoint.machineId);
  const recordKey = endpointKey(gsm, wanted.endpoint.machineId);
  let base = current;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!isTransition(base?.value, wanted.record)) return { kind: 'handed-over' };
    const claim: Claim = { ...stamp(lease), ...wanted };
    let etag: string;
    try {
      etag = await state.put(key, claim, { ifNoneMatch: true });
    } catch (error) {
      if (!isConflict(error)) throw error;
      const other = await state.get(key, Claim);
      if (other) {
        return other.value.record.infected === wanted.record.infected
          ? { kind: 'handed-over' }
          : { kind: 'unsettled' };
      }
      // That claim completed in the meantime: the record may say something new.
      base = await state.get(recordKey, EndpointRecord);
      continue;
    }
    const settled = await state.get(recordKey, EndpointRecord);
    if (!isTransition(settled?.value, wanted.record)) {
      await state.delete(key);
      return { kind: 'handed-over' };
    }
    return {
      kind: 'claimed',
      held: { key, etag, claim, recordKey, recordEtag: settled?.etag ?? null },
    };
  }
  return { kind: 'unsettled' };
}

/**
 * Takes over every claim of the GSM whose lease has run out: its owner died (a lease outlives
 * the function's timeout) or gave it up after a failure. A claim whose transition the record
 * already shows was completed but not yet deleted; it is deleted, not sent again.
 */
export async function takeOverExpired(
  state: StateStore,
  gsm: string,
  lease: Lease,
): Promise<HeldClaim[]> {
  const held: HeldClaim[] = [];
  for await (const { key } of state.list(claimsPrefix(gsm))) {
    const found = await state.get(key, Claim);
    if (!found || Date.parse(found.value.leaseUntil) > lease.now()) continue;
    const claim: Claim = { ...found.value, ...stamp(lease) };
    let etag: string;
    try {
      etag = await state.put(key, claim, { ifMatch: found.etag });
    } catch (error) {
      if (isConflict(error)) continue; // another run took it over first
      throw error;
    }
    const recordKey = endpointKeyOfClaim(gsm, key);
    const record = await state.get(recordKey, EndpointRecord);
    if (!isTransition(record?.value, claim.record)) {
      await state.delete(key);
      continue;
    }
    held.push({ key, etag, claim, recordKey, recordEtag: record?.etag ?? null });
  }
  return held;
}

/**
 * Records the transition (conditional on the record version it started from) and deletes the
 * claim. False when the record moved under us, which only a run that took over our expired
 * claim can do: it completes the claim, so we leave it alone.
 */
export async function completeClaim(state: StateStore, held: HeldClaim): Promise<boolean> {
  try {
    await state.put(
      held.recordKey,
      held.claim.record,
      held.recordEtag ? { ifMatch: held.recordEtag } : { ifNoneMatch: true },
    );
  } catch (error) {
    if (isConflict(error)) return false;
    throw error;
  }
  await state.delete(held.key);
  return true;
}

/**
 * Gives a claim up after its alert could not be sent, by ending its lease now, so the next run
 * takes it over at once instead of after the lease. Best effort: if this fails too, the lease
 * runs out on its own; if someone changed the claim, it is theirs.
 */
export async function releaseClaim(state: StateStore, held: HeldClaim, now: number): Promise<void> {
  const released: Claim = { ...held.claim, leaseUntil: new Date(now).toISOString() };
  await state.put(held.key, released, { ifMatch: held.etag }).catch(() => undefined);
}
