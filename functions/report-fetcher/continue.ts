import type { WorkQueue } from '../../lib/aws/index.js';
import { Day } from '../../lib/index.js';
import * as z from '../../lib/zod.js';
import type { DayJob } from './day-job.js';

const KeyCode = z.string().check(z.regex(/^[A-Za-z0-9._-]+$/, 'must be a key code'));

/**
 * "Go on with this day's job": the message an invocation that must stop leaves on the archive
 * queue. It names the job's generation when it was handed over; the archive worker takes the
 * job on only if nobody has since (or if the message is a redelivery of the one that holds it).
 */
export const ContinueMessage = z.object({
  gsm: KeyCode,
  day: Day,
  generation: z.number().check(z.int(), z.minimum(0)),
});
export type ContinueMessage = z.infer<typeof ContinueMessage>;

/** Hands a saved job over to a fresh invocation. */
export async function handOver(queue: WorkQueue<ContinueMessage>, job: DayJob): Promise<void> {
  const sent = await queue.send([{ gsm: job.gsm, day: job.date, generation: job.generation }]);
  const unsent = sent.unsent[0];
  if (unsent)
    throw new Error(`could not hand the job of ${job.gsm} for ${job.date} over: ${unsent.reason}`);
}

/**
 * Whether a message may take the job on: it is the job's latest hand-over, or the redelivery of
 * the one that holds it, or the job has gone stale (its chain broke: a message redriven from the
 * dead-letter queue, which SQS gives a new id, then picks it up again).
 */
export function mayTakeOn(
  job: DayJob,
  message: ContinueMessage,
  messageId: string,
  stale: { now: number; staleMs: number },
): boolean {
  return (
    job.generation === message.generation ||
    job.owner === messageId ||
    stale.now - job.savedAt >= stale.staleMs
  );
}
