import { DeliveryMessage } from '../../lib/alerts/index.js';
import type { StateStore } from '../../lib/aws/index.js';
import { SkywatchError } from '../../lib/errors/index.js';
import { systemClock } from '../../lib/http/index.js';
import * as z from '../../lib/zod.js';
import { configuredDestinations, deliveryTo, type NotifierSecret } from './destinations.js';
import { DeliveryFailedError, DeliveryRejectedError, type PostOptions, post } from './post.js';
import { claimSend, finishSend, refusedBefore, releaseSend } from './sent.js';

/** A queued message that is not a delivery this notifier can read. */
export class UnreadableAlertError extends SkywatchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnreadableAlertError';
  }
}

/** Another notifier holds the event's sending lease (one cut by its timeout, or a twin). */
export class DeliveryBusyError extends SkywatchError {
  constructor(
    readonly destination: string,
    readonly retryAfterMs: number,
  ) {
    super(`${destination}: another notifier is sending this event`);
    this.name = 'DeliveryBusyError';
  }
}

export type DeliveryMetric =
  | 'Delivered'
  | 'DeliveryRetried'
  | 'DeliveryFailed'
  | 'DeliveryRejected'
  | 'NotConfigured';

export interface NotifyDeps {
  state: StateStore;
  secret: () => Promise<NotifierSecret>;
  /** Keeps a refused delivery for an operator (the dead-letter queue), with why. */
  deadLetter: (reason: string) => Promise<void>;
  metric: (destination: string, name: DeliveryMetric) => void;
  now?: () => number;
  /** Told of each answer this call had (not of a copy already delivered), for the history. */
  outcome?: (outcome: DeliveryOutcome) => void;
}

/** One destination's answer to one event, as the alert history records it. */
export interface DeliveryOutcome {
  event: 'delivered' | 'refused' | 'failed' | 'not-configured';
  /** The destination's HTTP status, when it answered. */
  status?: number | undefined;
  at: number;
}

export interface NotifyOptions extends Omit<PostOptions, 'onRetry'> {
  /** How long a `sending` marker holds off other notifiers; outlasts one delivery's retries. */
  leaseMs: number;
}

/**
 * Reads a message of the notifier's queue: v2, or v1 from an alerter before routing (still in
 * flight during an update); a typed error says what is wrong with it.
 */
export function readDelivery(body: string): DeliveryMessage {
  try {
    return z.parse(DeliveryMessage, JSON.parse(body));
  } catch (error) {
    throw new UnreadableAlertError('A queued delivery is not JSON of the documented shape', {
      cause: error,
    });
  }
}

/**
 * What became of one event at one destination: it has it (now or before), refused it for
 * good (kept in the dead-letter queue), or is not configured.
 */
export type Delivered = 'delivered' | 'refused' | 'not-configured';

/**
 * Delivers one alert event to one destination, once: a `sending` marker claims it first, so a
 * redelivered message (the invocation was cut after the post, or SQS handed it out twice) is
 * not posted again. An event whose predecessor the destination refused is not posted either:
 * it joins it in the dead-letter queue (FIFO, same group), so the redrive restores the order. `redrive`: an operator moved the message back from the dead-letter queue,
 * so a destination that refused it before is tried again. A delivery that may succeed later
 * throws (DeliveryFailedError, DeliveryBusyError, or an AWS error) and the queue brings the
 * message back.
 */
export async function deliverEvent(
  deps: NotifyDeps,
  message: DeliveryMessage,
  options: NotifyOptions,
  receipt: Receipt = {},
): Promise<Delivered> {
  const { redrive = false, lastTry = false } = receipt;
  const now = deps.now ?? (() => systemClock.now());
  const { alert, destination } = message;
  const secret = await deps.secret();
  const config = configuredDestinations(secret).get(destination);
  const told = (event: DeliveryOutcome['event'], status?: number) =>
    deps.outcome?.({ event, status, at: now() });
  if (!config) {
    told('not-configured');
    deps.metric(destination, 'NotConfigured');
    return 'not-configured';
  }
  const route = message.schema === 'skywatch.delivery/v2' ? message.route : undefined;
  const delivery = deliveryTo(destination, config, alert, {
    route,
    consoleUrl: secret.consoleUrl,
    now: new Date(now()),
  });
  const claim = await claimSend(
    deps.state,
    destination,
    alert.eventId,
    now(),
    options.leaseMs,
    redrive,
  );
  if (claim.kind === 'done') return 'delivered';
  if (claim.kind === 'busy') throw new DeliveryBusyError(destination, options.leaseMs);
  /** Keeps the event for an operator's redrive, and marks it refused at this destination. */
  const refuse = async (reason: string, status?: number): Promise<Delivered> => {
    await deps.deadLetter(reason);
    await finishSend(deps.state, claim.claim, 'rejected', now());
    told('refused', status);
    deps.metric(destination, 'DeliveryRejected');
    return 'refused';
  };
  // Behind a refused event of the same alert: kept with it, in order, for the same redrive.
  if (await refusedBefore(deps.state, destination, alert.eventId, now()))
    return refuse(`${destination}: held behind an earlier event of ${alert.id} it refused`);
  let status: number;
  try {
    status = await post(delivery, {
      ...options,
      onRetry: () => deps.metric(destination, 'DeliveryRetried'),
    });
  } catch (error) {
    if (error instanceof DeliveryRejectedError) return refuse(error.message, error.status);
    const answered = error instanceof DeliveryFailedError ? error.status : undefined;
    if (lastTry)
      return refuse(
        `gave up after the queue's last receive: ${(error as Error).message}`,
        answered,
      );
    await releaseSend(deps.state, claim.claim);
    told('failed', answered);
    deps.metric(destination, 'DeliveryFailed');
    throw error;
  }
  await finishSend(deps.state, claim.claim, 'sent', now());
  told('delivered', status);
  deps.metric(destination, 'Delivered');
  return 'delivered';
}

/** How this message came: redriven by an operator, or on the queue's last receive. */
export interface Receipt {
  redrive?: boolean;
  /**
   * SQS would move it to the dead-letter queue after this failure: it is dead-lettered here
   * instead, as a refusal, so the alert's later events wait behind it (see refusedBefore).
   */
  lastTry?: boolean;
}

/** The Retry-After a failure asks for, if any, in milliseconds. */
export function askedDelayMs(error: unknown): number | undefined {
  if (error instanceof DeliveryFailedError) return error.retryAfterMs;
  if (error instanceof DeliveryBusyError) return error.retryAfterMs;
  return undefined;
}
