import { createHash } from 'node:crypto';
import * as z from '../zod.js';
import { HealthAlert } from './model.js';

/** The receivers the notifier knows how to post to (docs/operations.md, "Delivery"). */
export const DESTINATION_NAMES = ['slack', 'teams', 'pagerduty', 'webhook'] as const;
export const DestinationName = z.enum(DESTINATION_NAMES);
export type DestinationName = z.infer<typeof DestinationName>;

/**
 * One alert event for one destination: a message of the notifier's FIFO queue. One message per
 * destination, so that a destination that fails holds back only its own later events of the
 * same alert (its message group), never another destination's.
 */
export const DeliveryMessage = z.object({
  schema: z.literal('skywatch.delivery/v1'),
  destination: DestinationName,
  alert: HealthAlert,
});
export type DeliveryMessage = z.infer<typeof DeliveryMessage>;

/** SQS group and deduplication ids: at most 128 of these characters (SendMessage). */
const SQS_ID = /^[!-~]{1,128}$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The message group of an alert at a destination: SQS FIFO hands a group's messages over one at
 * a time, in order, so a resolve never overtakes its trigger. An id SQS would refuse (too long,
 * or outside printable ASCII) is hashed.
 *
 * @example
 * deliveryGroup('pagerduty', 'infected/A1B2') // 'pagerduty:infected/A1B2'
 */
export function deliveryGroup(destination: DestinationName, alertId: string): string {
  const plain = `${destination}:${alertId}`;
  return SQS_ID.test(plain) ? plain : `${destination}:sha256:${sha256(alertId)}`;
}

/**
 * The deduplication id of an event at a destination: an alerter run that dies after queueing
 * and before recording it queues the same event again, and SQS drops the copy (within its
 * five-minute window; the notifier's sent markers cover the rest).
 */
export function deliveryDeduplicationId(destination: DestinationName, eventId: string): string {
  return sha256(`${destination}\n${eventId}`);
}
