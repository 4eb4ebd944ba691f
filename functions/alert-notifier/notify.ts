import { type HealthAlert, parseChatbotMessage } from '../../lib/alerts/index.js';
import type { StateStore } from '../../lib/aws/index.js';
import { SkywatchError } from '../../lib/errors/index.js';
import {
  type Delivery,
  type DestinationName,
  deliveries,
  type NotifierSecret,
} from './destinations.js';
import { DeliveryRejectedError, type PostOptions, post } from './post.js';
import { claimSend, finishSend, releaseSend } from './sent.js';

/** A queued message that is not a health alert this notifier can read. */
export class UnreadableAlertError extends SkywatchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnreadableAlertError';
  }
}

export type DeliveryMetric =
  | 'Delivered'
  | 'DeliveryRetried'
  | 'DeliveryFailed'
  | 'DeliveryRejected';

export interface NotifyDeps {
  state: StateStore;
  secret: () => Promise<NotifierSecret>;
  /** Keeps a refused delivery for an operator (the dead-letter queue), with why. */
  deadLetter: (body: string, destination: DestinationName, reason: string) => Promise<void>;
  metric: (destination: DestinationName, name: DeliveryMetric) => void;
  now?: () => number;
}

export interface NotifyOptions extends Omit<PostOptions, 'onRetry'> {
  /** How long a `sending` marker holds off other notifiers; outlasts one delivery's retries. */
  leaseMs: number;
}

/**
 * The SQS body as SNS wrote it: the SNS envelope (raw delivery off) or the message itself
 * (raw delivery on). Answers undefined for a message that is not a health alert.
 */
export function readAlert(body: string): HealthAlert | undefined {
  let message = body;
  try {
    const envelope = JSON.parse(body) as { Type?: unknown; Message?: unknown };
    if (envelope.Type === 'Notification' && typeof envelope.Message === 'string')
      message = envelope.Message;
    const parsed = JSON.parse(message) as {
      source?: unknown;
      metadata?: { additionalContext?: { skywatchAlert?: unknown } };
    };
    // Not an alert: a v1 alert, or the daily digest (both for people, not destinations).
    if (parsed.source !== 'custom' || !parsed.metadata?.additionalContext?.skywatchAlert)
      return undefined;
    return parseChatbotMessage(message);
  } catch (error) {
    throw new UnreadableAlertError('A queued alert is not JSON of the documented shape', {
      cause: error,
    });
  }
}

/** Which destination a redrive from the dead-letter queue is for, if any. */
export interface Redrive {
  /** The destination that refused the event: its `rejected` marker no longer holds it back. */
  refusedBy?: DestinationName | undefined;
}

/**
 * Delivers one alert event to every configured destination that does not have it yet, all at
 * once: a hung or failing destination never delays another. Answers true when every
 * destination has it (or refused it for good), false when one should be tried again later
 * (the message goes back to the queue; the others are not re-sent).
 */
export async function notify(
  deps: NotifyDeps,
  body: string,
  alert: HealthAlert,
  options: NotifyOptions,
  redrive: Redrive = {},
): Promise<boolean> {
  const now = deps.now ?? Date.now;
  const all = deliveries(alert, await deps.secret(), new Date(now()));
  const done = await Promise.all(
    all.map((delivery) => deliverOnce(deps, body, alert, delivery, options, redrive)),
  );
  return done.every(Boolean);
}

/** One destination's share of `notify`: true when it has the event or refused it for good. */
async function deliverOnce(
  deps: NotifyDeps,
  body: string,
  alert: HealthAlert,
  delivery: Delivery,
  options: NotifyOptions,
  redrive: Redrive,
): Promise<boolean> {
  const now = deps.now ?? Date.now;
  const { destination } = delivery;
  const retryRejected = redrive.refusedBy === destination;
  const claim = await claimSend(
    deps.state,
    destination,
    alert.eventId,
    now(),
    options.leaseMs,
    retryRejected,
  );
  if (claim.kind !== 'claimed') return claim.kind === 'done';
  try {
    await post(delivery, {
      ...options,
      onRetry: () => deps.metric(destination, 'DeliveryRetried'),
    });
    await finishSend(deps.state, claim.key, 'sent', now());
    deps.metric(destination, 'Delivered');
    return true;
  } catch (error) {
    if (error instanceof DeliveryRejectedError) {
      await deps.deadLetter(body, destination, error.message);
      await finishSend(deps.state, claim.key, 'rejected', now());
      deps.metric(destination, 'DeliveryRejected');
      return true;
    }
    await releaseSend(deps.state, claim.key);
    deps.metric(destination, 'DeliveryFailed');
    return false;
  }
}
