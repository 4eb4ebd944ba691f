import { randomUUID } from 'node:crypto';
import {
  ClaimLostError,
  ConditionalRecords,
  type Claim as RecordClaim,
  type StateStore,
} from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';

/**
 * Which events each destination already has, so that an event SNS delivers twice (or SQS
 * redelivers after a partial failure) reaches each destination once: a claim per destination
 * and event (lib/aws/conditional-record.ts), taken before the request with a lease, completed
 * `sent` (or `rejected`) after, released when the request failed. A claim still pending after
 * its lease belongs to a notifier that died mid-request: the next delivery takes it over.
 */
const Outcome = z.enum(['sent', 'rejected']);

const markerKey = (destination: string, eventId: string) =>
  `notifier/${destination}/${encodeURIComponent(eventId)}.json`;

const markers = (state: StateStore, now: number) =>
  new ConditionalRecords(state, { result: Outcome, now: () => now });

export type Claim =
  /** Ours to send: finishSend and releaseSend write over this claim only. */
  | { kind: 'claimed'; claim: RecordClaim }
  /** Sent or rejected before: nothing to do. */
  | { kind: 'done' }
  /** Another notifier is sending it right now: try again later. */
  | { kind: 'busy' };

/**
 * Claims the sending of one event to one destination. `retryRejected`: an operator redrove the
 * event from the dead-letter queue after this destination refused it (and, presumably, fixed
 * the destination), so a `rejected` marker is taken over and the event sent again.
 */
export async function claimSend(
  state: StateStore,
  destination: string,
  eventId: string,
  now: number,
  leaseMs: number,
  retryRejected = false,
): Promise<Claim> {
  const key = markerKey(destination, eventId);
  const outcome = await markers(state, now).claim(key, {
    owner: randomUUID(),
    leaseMs,
    reopen: (result) => retryRejected && result === 'rejected',
  });
  if (outcome.kind === 'claimed') return { kind: 'claimed', claim: outcome.claim };
  // Markers carry no payload digest, so there is no mismatch: anything else is busy.
  return outcome.kind === 'done' ? { kind: 'done' } : { kind: 'busy' };
}

/**
 * Records that the destination has the event (or refused it for good). When another notifier
 * took the marker over after our lease ran out, its own outcome is the one kept.
 */
export async function finishSend(
  state: StateStore,
  claim: RecordClaim,
  status: 'sent' | 'rejected',
  now: number,
): Promise<void> {
  try {
    await markers(state, now).complete(claim, status);
  } catch (error) {
    if (!(error instanceof ClaimLostError)) throw error;
  }
}

/**
 * Gives the event up for this destination, so a redelivery sends it without waiting. Not ours
 * any more (taken over after the lease): the holder settles it.
 */
export async function releaseSend(state: StateStore, claim: RecordClaim): Promise<void> {
  await markers(state, Date.now())
    .release(claim)
    .catch(() => undefined);
}

/**
 * True when the destination refused the event before this one of the same alert (`id#n-1`),
 * and that refusal still stands: the event must wait with it in the dead-letter queue, or the
 * destination would see a resolve without its trigger, then the trigger after it on redrive.
 */
export async function refusedBefore(
  state: StateStore,
  destination: string,
  eventId: string,
  now: number,
): Promise<boolean> {
  const match = /^(.*)#(\d+)$/.exec(eventId);
  const seq = Number(match?.[2]);
  if (!match || !(seq > 1)) return false;
  const previous = await markers(state, now).read(markerKey(destination, `${match[1]}#${seq - 1}`));
  return previous?.record.state === 'done' && previous.record.result === 'rejected';
}
