import { createHash } from 'node:crypto';
import { ConflictError, type StateStore } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';

/**
 * At-most-once delivery to the service per idempotency key, as long as deliveries live. A
 * delivery first claims the key (a conditional create stamped with claimedAt); a retried
 * delivery finds the claim and replays the stored answer, or hears 409 while the first is
 * still in flight. A failed call releases the claim. A claim older than the takeover window
 * (just above the function's timeout, so its Lambda is gone) was abandoned: the Lambda died,
 * or could not record its answer. The next retry takes it over with a conditional write and
 * calls the service again, which 4.10 allows: it sets the cart's customers, it does not add.
 *
 * Every record holds the digest of the payload it is for: the same key with another payload is
 * a conflict, never a replay of another delivery's answer (a released record answered nothing
 * and is free for any payload).
 */
const Digest = z.string().check(z.regex(/^sha256:[0-9a-f]{64}$/));
const Stored = z.discriminatedUnion('state', [
  z.object({ state: z.literal('pending'), claimedAt: z.iso.datetime(), digest: Digest }),
  z.object({ state: z.literal('released') }),
  z.object({
    state: z.literal('done'),
    statusCode: z.number(),
    body: z.string(),
    digest: Digest,
  }),
]);
type Stored = z.infer<typeof Stored>;

export type Claim =
  | { kind: 'claimed'; etag: string }
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

function isFree(stored: Stored, options: ClaimOptions): boolean {
  if (stored.state === 'released') return true;
  if (stored.state !== 'pending') return false;
  return options.now() - Date.parse(stored.claimedAt) > options.takeoverMs;
}

async function write(
  state: StateStore,
  key: string,
  value: unknown,
  condition: { ifMatch: string } | { ifNoneMatch: true },
): Promise<string | undefined> {
  try {
    return await state.put(key, value, condition);
  } catch (error) {
    if (error instanceof ConflictError) return undefined;
    throw error;
  }
}

export async function claim(
  state: StateStore,
  key: string,
  digest: string,
  options: ClaimOptions,
): Promise<Claim> {
  // Each lost race means someone else changed the record: look again, a few times at most.
  for (let attempt = 0; attempt < 3; attempt++) {
    const pending = { state: 'pending', claimedAt: new Date(options.now()).toISOString(), digest };
    const created = await write(state, key, pending, { ifNoneMatch: true });
    if (created !== undefined) return { kind: 'claimed', etag: created };
    const existing = await state.get(key, Stored);
    if (!existing) continue;
    const stored = existing.value;
    if (stored.state !== 'released' && stored.digest !== digest) return { kind: 'conflict' };
    if (stored.state === 'done') {
      return { kind: 'replay', statusCode: stored.statusCode, body: stored.body };
    }
    if (!isFree(stored, options)) return { kind: 'in-flight' };
    const taken = await write(state, key, pending, { ifMatch: existing.etag });
    if (taken !== undefined) return { kind: 'claimed', etag: taken };
  }
  return { kind: 'in-flight' };
}

/**
 * Stores the answer for replays, only over our own claim. False when a later delivery took the
 * claim over meanwhile (we outlived the takeover window): its answer is the one to keep.
 */
export async function complete(
  state: StateStore,
  key: string,
  etag: string,
  answer: { statusCode: number; body: string; digest: string },
): Promise<boolean> {
  return (await write(state, key, { state: 'done', ...answer }, { ifMatch: etag })) !== undefined;
}

/** Frees our claim after a failed call, so the caller's retry goes through at once. */
export async function release(state: StateStore, key: string, etag: string): Promise<void> {
  await write(state, key, { state: 'released' }, { ifMatch: etag });
}
