import { ConflictError, type StateStore } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';

/**
 * Which events each destination already has, so that an event SNS delivers twice (or SQS
 * redelivers after a partial failure) reaches each destination once. A marker is created
 * If-None-Match as `sending` with a lease before the request, and becomes `sent` (or
 * `rejected`) after; a failed request deletes it. A marker still `sending` after its lease
 * belongs to a notifier that died mid-request: the next delivery takes it over.
 */
export const Marker = z.object({
  status: z.enum(['sending', 'sent', 'rejected']),
  at: z.string(),
  leaseUntil: z.optional(z.string()),
});
export type Marker = z.infer<typeof Marker>;

const markerKey = (destination: string, eventId: string) =>
  `notifier/${destination}/${encodeURIComponent(eventId)}.json`;

export type Claim =
  | { kind: 'claimed'; key: string; etag: string }
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
  const sending: Marker = {
    status: 'sending',
    at: new Date(now).toISOString(),
    leaseUntil: new Date(now + leaseMs).toISOString(),
  };
  try {
    return { kind: 'claimed', key, etag: await state.put(key, sending, { ifNoneMatch: true }) };
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
  }
  const found = await state.get(key, Marker);
  if (!found) return { kind: 'busy' }; // released meanwhile: the redelivery will claim it
  const { status, leaseUntil } = found.value;
  if (status === 'sent' || (status === 'rejected' && !retryRejected)) return { kind: 'done' };
  if (status === 'sending' && Date.parse(leaseUntil ?? '') > now) return { kind: 'busy' };
  try {
    return { kind: 'claimed', key, etag: await state.put(key, sending, { ifMatch: found.etag }) };
  } catch (error) {
    if (error instanceof ConflictError) return { kind: 'busy' };
    throw error;
  }
}

export async function finishSend(
  state: StateStore,
  key: string,
  status: 'sent' | 'rejected',
  now: number,
): Promise<void> {
  await state.put(key, { status, at: new Date(now).toISOString() } satisfies Marker);
}

/** Gives the event up for this destination, so a redelivery sends it without waiting. */
export async function releaseSend(state: StateStore, key: string): Promise<void> {
  await state.delete(key).catch(() => undefined);
}
