import { createHash, randomUUID } from 'node:crypto';
import {
  type Claim,
  ClaimLostError,
  ConditionalRecords,
  type StateStore,
} from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';

/**
 * At-most-once delivery to the service per idempotency key, as long as deliveries live, on the
 * claims of lib/aws/conditional-record.ts. A delivery first claims the key, for the digest of
 * its payload; a retried delivery finds the record done and replays the stored answer, or
 * hears 409 while the first is still in flight. A failed call releases the claim. A claim older
 * than the takeover window (just above the function's timeout, so its Lambda is gone) was
 * abandoned: the Lambda died, or could not record its answer. The next retry takes it over and
 * calls the service again, which 4.10 allows: it sets the cart's customers, it does not add.
 *
 * The same key with another payload is a conflict, never a replay of another delivery's answer
 * (a released record answered nothing and is free for any payload).
 */
const Answer = z.object({ statusCode: z.number(), body: z.string() });

export type DeliveryClaim =
  | { kind: 'claimed'; claim: Claim }
  | { kind: 'replay'; statusCode: number; body: string }
  | { kind: 'in-flight' }
  /** The key was used for another payload. */
  | { kind: 'conflict' };

export interface ClaimOptions {
  takeoverMs: number;
  now: () => number;
}

/**
 * The kinds of key a record can be for, each its own folder, so that a value of one kind can
 * never name a record of another (as a key equal to another delivery's signature once did).
 */
export type KeyKind = 'webhook-id';

/**
 * Where the record of one key lives. The key is hashed: it is the sender's text.
 *
 * @example
 * recordKey('webhook-id', 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W');
 */
export function recordKey(kind: KeyKind, key: string): string {
  const hash = createHash('sha256').update(key).digest('hex');
  return `cart-customer-webhook/idempotency/${kind}/${hash}.json`;
}

/** The digest a record keeps of the payload it answered for. */
export function payloadDigest(payload: Uint8Array): string {
  return `sha256:${createHash('sha256').update(payload).digest('hex')}`;
}

const answers = (state: StateStore, now?: () => number) =>
  new ConditionalRecords(state, { result: Answer, ...(now ? { now } : {}) });

export async function claim(
  state: StateStore,
  key: string,
  digest: string,
  options: ClaimOptions,
): Promise<DeliveryClaim> {
  // The owner is for people reading the record: the claim's version is what makes it ours.
  const claimant = { owner: randomUUID(), digest, leaseMs: options.takeoverMs };
  const outcome = await answers(state, options.now).claim(key, claimant);
  switch (outcome.kind) {
    case 'claimed':
      return { kind: 'claimed', claim: outcome.claim };
    case 'done':
      return { kind: 'replay', ...outcome.result };
    case 'held':
      return { kind: 'in-flight' };
    case 'mismatch':
      return { kind: 'conflict' };
  }
}

/**
 * Stores the answer for replays, only over our own claim. False when a later delivery took the
 * claim over meanwhile (we outlived the takeover window): its answer is the one to keep.
 */
export async function complete(
  state: StateStore,
  claim: Claim,
  answer: { statusCode: number; body: string; digest: string },
): Promise<boolean> {
  const { digest, ...result } = answer;
  try {
    await answers(state).complete({ ...claim, digest }, result);
    return true;
  } catch (error) {
    if (error instanceof ClaimLostError) return false;
    throw error;
  }
}

/** Frees our claim after a failed call, so the caller's retry goes through at once. */
export async function release(state: StateStore, claim: Claim): Promise<void> {
  try {
    await answers(state).release(claim);
  } catch (error) {
    // Taken over meanwhile: the claim is the taker's to settle.
    if (!(error instanceof ClaimLostError)) throw error;
  }
}
