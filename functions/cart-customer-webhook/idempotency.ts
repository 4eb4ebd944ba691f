import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { StateStore } from '../../lib/aws/index.js';

/**
 * At-most-once delivery to the service per idempotency key. A delivery first claims the key
 * with a conditional create; a retried delivery finds the claim and replays the stored answer
 * (or hears 409 while the first is still in flight). A failed call releases the claim.
 */
const Stored = z.object({
  state: z.enum(['pending', 'done']),
  statusCode: z.number().optional(),
  body: z.string().optional(),
});

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; statusCode: number; body: string }
  | { kind: 'in-flight' };

export function recordKey(idempotencyKey: string): string {
  return `cart-customer-webhook/idempotency/${createHash('sha256').update(idempotencyKey).digest('hex')}.json`;
}

export async function claim(state: StateStore, key: string): Promise<Claim> {
  if (await state.create(key, { state: 'pending' })) return { kind: 'claimed' };
  const existing = await state.get(key, Stored);
  if (existing?.value.state === 'done' && existing.value.statusCode !== undefined) {
    return {
      kind: 'replay',
      statusCode: existing.value.statusCode,
      body: existing.value.body ?? '',
    };
  }
  return { kind: 'in-flight' };
}

export async function complete(
  state: StateStore,
  key: string,
  statusCode: number,
  body: string,
): Promise<void> {
  await state.put(key, { state: 'done', statusCode, body });
}

export async function release(state: StateStore, key: string): Promise<void> {
  await state.delete(key);
}
