import { createHash } from 'node:crypto';
import * as z from '../zod.js';
import { HealthAlert } from './model.js';
import { DestinationName, LEGACY_DESTINATIONS, RouteFields } from './routing.js';

/**
 * The kinds of receiver the notifier knows how to post to (docs/operations.md, "Delivery").
 * The four legacy keys of its secret name a destination of each, named as its type.
 */
export const DESTINATION_TYPES = LEGACY_DESTINATIONS;
export const DestinationType = z.enum(DESTINATION_TYPES);
export type DestinationType = z.infer<typeof DestinationType>;
/** The destinations of the absent routing document (lib/alerts/routing.ts). */
export const DESTINATION_NAMES = LEGACY_DESTINATIONS;
export { DestinationName };

/** The route an event took, as the message carries it to the notifier (the webhook shows it). */
export const RouteRef = z.object({ name: z.string(), fields: RouteFields });
export type RouteRef = z.infer<typeof RouteRef>;

/**
 * One alert event for one destination: a message of the notifier's FIFO queue. One message per
 * destination, so that a destination that fails holds back only its own later events of the
 * same alert (its message group), never another destination's.
 *
 * v2 names any destination of the secret and carries the route; v1 (before routing) named one
 * of the four legacy destinations. The notifier still reads v1, for the messages in flight
 * when the alerter is updated.
 */
export const DeliveryMessageV1 = z.object({
  schema: z.literal('skywatch.delivery/v1'),
  destination: DestinationType,
  alert: HealthAlert,
});
export const DeliveryMessageV2 = z.object({
  schema: z.literal('skywatch.delivery/v2'),
  destination: DestinationName,
  route: RouteRef,
  alert: HealthAlert,
});
export const DeliveryMessage = z.discriminatedUnion('schema', [
  DeliveryMessageV1,
  DeliveryMessageV2,
]);
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
export function deliveryGroup(destination: string, alertId: string): string {
  const plain = `${destination}:${alertId}`;
  return SQS_ID.test(plain) ? plain : `${destination}:sha256:${sha256(alertId)}`;
}

/**
 * The deduplication id of an event at a destination: an alerter run that dies after queueing
 * and before recording it queues the same event again, and SQS drops the copy (within its
 * five-minute window; the notifier's sent markers cover the rest).
 */
export function deliveryDeduplicationId(destination: string, eventId: string): string {
  return sha256(`${destination}\n${eventId}`);
}
