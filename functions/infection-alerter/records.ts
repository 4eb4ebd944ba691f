import * as z from 'zod';
import type { StateStore } from '../../lib/aws/index.js';

/** Where the alerter keeps what it knows about one GSM (under the bucket's `state/`). */
export const Cursor = z.object({ modifiedSince: z.string() });
export const EndpointRecord = z.object({
  infected: z.boolean(),
  threat: z.array(z.string()),
  /** LastChanged of the entry that made the record. */
  changedAt: z.string(),
});
export type EndpointRecord = z.infer<typeof EndpointRecord>;

export const cursorKey = (gsm: string) => `infection-alerter/${gsm}/cursor.json`;
export const endpointKey = (gsm: string, machineId: string) =>
  `infection-alerter/${gsm}/endpoints/${encodeURIComponent(machineId)}.json`;

/**
 * Moves an endpoint's record to `next.infected` unless it is already there. Answers true only
 * to the one caller whose conditional write made the change: of two overlapping runs that both
 * see the same infection, exactly one gets to alert.
 */
export async function transition(
  state: StateStore,
  key: string,
  current: { value: EndpointRecord; etag: string } | undefined,
  next: EndpointRecord,
): Promise<boolean> {
  if (current ? current.value.infected === next.infected : !next.infected) return false;
  try {
    await state.put(key, next, current ? { ifMatch: current.etag } : { ifNoneMatch: true });
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConflictError') return false;
    throw error;
  }
}

/** Puts a record back after an alert could not be sent, so the next run alerts instead. */
export async function undo(
  state: StateStore,
  key: string,
  previous: EndpointRecord | undefined,
): Promise<void> {
  if (previous) await state.put(key, previous);
  else await state.delete(key);
}
