import type { SQSClient } from '@aws-sdk/client-sqs';
import {
  type AlertRouter,
  type DeliveryMessage,
  deliveryDeduplicationId,
  deliveryGroup,
  documentRouter,
  type HealthAlert,
  type Routing,
} from '../alerts/index.js';
import { QueueError } from './errors.js';
import { WorkQueue } from './work-queue.js';

/**
 * Hands alert events to the notifier: one message of its FIFO queue per destination the alert
 * is routed to (see lib/alerts/delivery.ts and lib/alerts/routing.ts). Routing happens here,
 * where the messages are made, and not in the notifier: one message per destination is what
 * keeps a failing receiver from holding back the others (each is its own message group).
 * Which destinations are configured is the notifier's secret, which the alerter may not read;
 * a message for a destination without configuration is dropped by the notifier at the cost of
 * one SQS request.
 *
 * @example
 * await new DeliveryQueue(sqsClient(), env.NOTIFIER_QUEUE_URL, router).enqueue(alert);
 */
export class DeliveryQueue {
  private readonly queue: WorkQueue<DeliveryMessage>;

  constructor(
    sqs: SQSClient,
    queueUrl: string,
    /** @default every alert to the four legacy destinations (the absent routing document) */
    private readonly router: AlertRouter = documentRouter(),
  ) {
    this.queue = new WorkQueue<DeliveryMessage>(sqs, queueUrl, {
      envelope: (m) => ({
        groupId: deliveryGroup(m.destination, m.alert.id),
        deduplicationId: deliveryDeduplicationId(m.destination, m.alert.eventId),
        attributes: { destination: m.destination, action: m.alert.action, kind: m.alert.kind },
      }),
    });
  }

  /** Where the alert would go now. */
  route(alert: HealthAlert): Promise<Routing> {
    return this.router.route(alert);
  }

  /**
   * Queues the event for each destination of `routing` (a resolve passes its trigger's), or of
   * the router's answer when none is given; answers the routing used. Raises QueueError when
   * one message was not taken.
   */
  async enqueue(alert: HealthAlert, routing?: Routing): Promise<Routing> {
    const used = routing ?? (await this.router.route(alert));
    const route = { name: used.route, fields: used.fields };
    const { unsent } = await this.queue.send(
      used.destinations.map((destination) => ({
        schema: 'skywatch.delivery/v2' as const,
        destination,
        route,
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
    return used;
  }
}
