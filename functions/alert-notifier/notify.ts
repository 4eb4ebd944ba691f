import { type HealthAlert, parseChatbotMessage } from '../../lib/alerts/index.js';
import type { StateStore } from '../../lib/aws/index.js';
import { SkywatchError } from '../../lib/errors/index.js';
import { type DestinationName, deliveries, type NotifierSecret } from './destinations.js';
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

/**
 * Delivers one alert event to every configured destination that does not have it yet.
 * Answers true when every destination has it (or refused it for good), false when one should
 * be tried again later (the message goes back to the queue; the others are not re-sent).
 */
export async function notify(
  deps: NotifyDeps,
  body: string,
  alert: HealthAlert,
  options: NotifyOptions,
): Promise<boolean> {
  const now = deps.now ?? Date.now;
  let complete = true;
  for (const delivery of deliveries(alert, await deps.secret(), new Date(now()))) {
    const { destination } = delivery;
    const claim = await claimSend(deps.state, destination, alert.eventId, now(), options.leaseMs);
    if (claim.kind === 'done') continue;
    if (claim.kind === 'busy') {
      complete = false;
      continue;
    }
    try {
      await post(delivery, {
        ...options,
        onRetry: () => deps.metric(destination, 'DeliveryRetried'),
      });
      await finishSend(deps.state, claim.key, 'sent', now());
      deps.metric(destination, 'Delivered');
    } catch (error) {
      if (error instanceof DeliveryRejectedError) {
        await deps.deadLetter(body, destination, error.message);
        await finishSend(deps.state, claim.key, 'rejected', now());
        deps.metric(destination, 'DeliveryRejected');
        continue;
      }
      await releaseSend(deps.state, claim.key);
      deps.metric(destination, 'DeliveryFailed');
      complete = false;
    }
  }
  return complete;
}
