import type { SQSClient } from '@aws-sdk/client-sqs';
import {
  DESTINATION_NAMES,
  type DeliveryMessage,
  type DestinationName,
  deliveryDeduplicationId,
  deliveryGroup,
  type HealthAlert,
} from '../alerts/index.js';
import { QueueError } from './errors.js';
import { WorkQueue } from './work-queue.js';

/**
 * Hands alert events to the notifier: one message of its FIFO queue per destination (see
 * lib/alerts/delivery.ts). Which destinations are configured is the notifier's secret, which
 * the alerter may not read; a message for a destination without configuration is dropped by
 * the notifier at the cost of one SQS request.
 *
 * @example
 * await new DeliveryQueue(sqsClient(), env.NOTIFIER_QUEUE_URL).enqueue(alert);
 */
export class DeliveryQueue {
  private readonly queue: WorkQueue<DeliveryMessage>;

  constructor(
    sqs: SQSClient,
    queueUrl: string,
    private readonly destinations: readonly DestinationName[] = DESTINATION_NAMES,
  ) {
    this.queue = new WorkQueue<DeliveryMessage>(sqs, queueUrl, {
      envelope: (m) => ({
        groupId: deliveryGroup(m.destination, m.alert.id),
        deduplicationId: deliveryDeduplicationId(m.destination, m.alert.eventId),
        attributes: { destination: m.destination, action: m.alert.action, kind: m.alert.kind },
      }),
    });
  }

  /** Queues the event for every destination; raises QueueError when one was not taken. */
  async enqueue(alert: HealthAlert): Promise<void> {
    const { unsent } = await this.queue.send(
      this.destinations.map((destination) => ({
        schema: 'skywatch.delivery/v1' as const,
        destination,
        alert,
      })),
    );
    if (unsent.length > 0) {
      const why = unsent.map((u) => `${u.item.destination}: ${u.code}`).join(', ');
      throw new QueueError(
        `Cannot queue ${alert.eventId} for delivery (${why})`,
        this.queue.queueUrl,
      );
    }
  }
}
