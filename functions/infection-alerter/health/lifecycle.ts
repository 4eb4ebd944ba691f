import { randomUUID } from 'node:crypto';
import type { HealthAlert, HealthKind, Routing } from '../../../lib/alerts/index.js';
import {
  type AlertPublisher,
  ConditionalRecords,
  type DeliveryQueue,
  type StateStore,
} from '../../../lib/aws/index.js';
import * as z from '../../../lib/zod.js';
import type { Observation } from './kinds.js';
import {
  type HeldBy,
  type KindState,
  type KnownSubjects,
  type Muted,
  OutboxEntry,
  outboxKey,
  outboxPrefix,
  outbreakOutboxPrefix,
  readSubject,
  SubjectRecord,
  subjectKey,
} from './records.js';

/**
 * The lifecycle of health alerts, kept in S3 so that it survives failed, overlapping and dead
 * runs (docs/operations.md, "Health alerts"):
 * - a subject record (one per endpoint, or per site) holds, per kind, whether its alert is open
 *   and `seq`, the number of transitions it went through;
 * - a transition is first written to an outbox entry `…/outbox/<subject>/<kind>/<seq>.json`,
 *   created only if absent, so of overlapping runs exactly one owns transition `seq`;
 * - draining publishes an entry, then moves the record to it (only from `seq - 1`), then deletes
 *   the entry. A run that dies anywhere leaves the entry for the next drain; an entry whose seq
 *   the record already reached (a late duplicate) is deleted unsent.
 * Sending an entry queues it for the notifier (one FIFO message per destination, in the
 * alert's message group: lib/aws/delivery-queue.ts) and publishes it to the alert topic (e-mail,
 * AWS Chatbot). Because seq n is sent only once the record shows n - 1, each alert's events
 * enter its message groups in order, which FIFO keeps to the receiver. A run that dies after
 * sending and before the record moved sends the entry again: SQS drops the copy within its
 * deduplication window and the notifier's sent markers after it; the topic may show it twice.
 * Overlapping runs see the same entries: a claim on sending each (lib/aws/conditional-record.ts,
 * leased past the alerter's timeout) lets one of them send it; a refused send releases it.
 * A muted entry (an endpoint grouped into its site's outbreak: health/outbreak.ts; a trigger
 * held by a maintenance window: health/maintenance.ts) goes the same way, its record moved and
 * nothing sent.
 * Routing (lib/alerts/routing.ts): a trigger is routed when its entry is written, so a send
 * retried later goes where the first try went; the record keeps where the trigger went, and
 * the resolve goes exactly there, whatever the routing says by then.
 */
const CLOSED: KindState = { open: false, seq: 0, openedAt: null };

export interface RecordOptions {
  /** Kinds whose trigger is recorded muted: its site's outbreak of that kind is open. */
  mute?: (kind: HealthKind) => boolean;
  /** Each entry this call created, with its key. */
  onCreated?: (entry: OutboxEntry, key: string) => void;
  /** Where a trigger goes (the delivery queue's router); without it, decided when it is sent. */
  route?: (alert: HealthAlert) => Promise<Routing>;
  /** The maintenance window holding a trigger (health/maintenance.ts); it wins over `mute`. */
  hold?: (alert: HealthAlert) => HeldBy | undefined;
  /** The run's listing of records, for reading the subject's as listed (records.ts). */
  known?: KnownSubjects;
}

/**
 * Writes an outbox entry for every observation that is a transition against the subject's
 * record. Answers how many entries this call created (an existing one is another run's). The
 * resolve of an incarnation whose trigger was muted is muted too: it was never opened anywhere.
 */
export async function recordTransitions(
  state: StateStore,
  gsm: string,
  subject: string,
  observations: readonly Observation[],
  now: number,
  options: RecordOptions = {},
): Promise<number> {
  if (observations.length === 0) return 0;
  const record = await readSubject(state, gsm, subject, options.known);
  let created = 0;
  for (const o of observations) {
    const current = record?.value.alerts[o.kind] ?? CLOSED;
    if (o.active === current.open) continue;
    const seq = current.seq + 1;
    const alert: HealthAlert = {
      schema: 'skywatch.alert/v2',
      ...o.alert,
      eventId: `${o.alert.id}#${seq}`,
      action: o.active ? 'trigger' : 'resolve',
      openedAt: o.active ? o.alert.occurredAt : (current.openedAt ?? o.alert.occurredAt),
    };
    const held = o.active ? options.hold?.(alert) : undefined;
    // A resolve is muted for the reason its trigger was: it was never opened anywhere.
    const muted: Muted | undefined = o.active
      ? held
        ? 'maintenance'
        : options.mute?.(o.kind)
          ? 'outbreak'
          : undefined
      : current.muted;
    // A muted trigger is routed if it is sent after all (health/outbreak.ts), when it is.
    const routing = o.active ? (muted ? undefined : await options.route?.(alert)) : current.routing;
    const entry: OutboxEntry = {
      subject,
      seq,
      createdAt: new Date(now).toISOString(),
      alert,
      ...(muted ? { muted } : {}),
      ...(held ? { held } : {}),
      ...(routing ? { routing } : {}),
    };
    const key = outboxKey(gsm, subject, o.kind, seq);
    if (await state.create(key, entry)) {
      created++;
      options.onCreated?.(entry, key);
    }
  }
  return created;
}

export interface Drained {
  published: number;
  /** Muted entries (an outbreak's members): the record moved, nothing was sent. */
  muted: number;
  /** Entries whose transition the record already showed: deleted unsent. */
  stale: number;
  /** Entries left for a later run because SQS or SNS refused them. */
  failed: number;
  events: HealthAlert[];
}

/**
 * How long a run's claim on sending an entry holds off the others: longer than the alerter's
 * 2-minute timeout, so a claim past it has a dead owner, whose entry the next run sends.
 */
export const SEND_LEASE_MS = 150_000;
const SENDING = '.sending';

/**
 * What draining does with a muted entry (health/outbreak.ts keeps the outbreaks). Without it, a
 * muted entry is sent like any other: nothing is held back that no outbreak stands for.
 */
export interface MutedEntries {
  /** A muted trigger: `join` its outbreak (moved unsent), `wait` for it, or `send` it after all. */
  trigger(entry: OutboxEntry): Promise<'join' | 'wait' | 'send'>;
  /** A muted resolve, before its record moves. */
  resolve(entry: OutboxEntry): Promise<void>;
}

export interface DrainOptions {
  sendLeaseMs: number;
  muted?: MutedEntries;
  /** The same for entries a maintenance window held (health/maintenance.ts). */
  held?: MutedEntries;
  /** Told of each entry drained, sent or recorded unsent, for the alert history. */
  onDrained?: (drained: DrainedEntry) => void;
}

/** An entry drained: sent (with where it went) or recorded unsent (`muted` says why). */
export interface DrainedEntry {
  entry: OutboxEntry;
  sent: boolean;
  routing?: Routing | undefined;
}

/**
 * Outbox entries in the order they are drained: outbreaks first, so that the trigger of an
 * outbreak is out before its members (muted, waiting for it) are taken; then the rest.
 */
async function* pendingKeys(state: StateStore, gsm: string): AsyncGenerator<string> {
  const groups = outbreakOutboxPrefix(gsm);
  for await (const { key } of state.list(groups)) if (!key.endsWith(SENDING)) yield key;
  for await (const { key } of state.list(outboxPrefix(gsm)))
    if (!key.endsWith(SENDING) && !key.startsWith(groups)) yield key;
}

/** An entry and where its record stands: `stale` (already shown) or `next` (its turn). */
async function readPending(state: StateStore, gsm: string, key: string) {
  const found = await state.get(key, OutboxEntry);
  if (!found) return undefined; // drained by an overlapping run meanwhile
  const entry = found.value;
  const record = await state.get(subjectKey(gsm, entry.subject), SubjectRecord);
  const current = record?.value.alerts[entry.alert.kind] ?? CLOSED;
  return { entry, current, stale: current.seq >= entry.seq, next: current.seq === entry.seq - 1 };
}

/**
 * Sends every pending transition of a GSM and moves the records; a muted one moves its record
 * unsent. A refused send leaves its entry for the next run and fails this one (after the others
 * were sent).
 */
export async function drainOutbox(
  deps: { state: StateStore; alerts: AlertPublisher; deliveries: DeliveryQueue },
  gsm: string,
  options: DrainOptions = { sendLeaseMs: SEND_LEASE_MS },
): Promise<Drained> {
  const { state } = deps;
  const sends = new ConditionalRecords(state, { result: z.literal('sent') });
  const owner = randomUUID();
  const out: Drained = { published: 0, muted: 0, stale: 0, failed: 0, events: [] };
  const errors: unknown[] = [];
  for await (const key of pendingKeys(state, gsm)) {
    const seen = await readPending(state, gsm, key);
    if (!seen) continue;
    if (seen.stale) {
      await state.delete(key);
      out.stale++;
      continue;
    }
    // An earlier transition is still pending (its entry sorts first and failed): keep order.
    if (!seen.next) continue;
    // Overlapping runs list the same entries: the one that claims an entry sends it.
    const claimKey = `${key}${SENDING}`;
    const claimed = await sends.claim(claimKey, { owner, leaseMs: options.sendLeaseMs });
    if (claimed.kind !== 'claimed') continue;
    // Read again under the claim: a run that finished the entry between the first read and the
    // claim deleted it, and a late copy of it finds the record moved. Acting on the first read
    // would send it twice, or add a member back to an outbreak it has left.
    const held = await readPending(state, gsm, key);
    if (!held?.next) {
      if (held?.stale) await state.delete(key);
      await state.delete(claimKey);
      continue;
    }
    const { entry, current } = held;
    let how: 'send' | 'join' | 'wait' | 'leave' = 'send';
    try {
      const hook = entry.muted === 'maintenance' ? options.held : options.muted;
      if (entry.muted && hook) {
        if (entry.alert.action === 'trigger') how = await hook.trigger(entry);
        else {
          await hook.resolve(entry);
          how = 'leave';
        }
      }
      if (how === 'wait') {
        await state.delete(claimKey);
        continue;
      }
      let routing: Routing | undefined;
      if (how === 'send') {
        // A resolve goes where its trigger went (an entry written before routing: the record).
        const planned = entry.routing ?? (isResolve(entry) ? current.routing : undefined);
        routing = await deps.deliveries.enqueue(entry.alert, planned);
        await deps.alerts.publishHealth(entry.alert, routing);
      }
      const joined = how === 'join' ? entry.muted : undefined;
      await moveRecord(state, gsm, entry, joined, isResolve(entry) ? undefined : routing);
      await state.delete(key);
      await state.delete(claimKey);
      options.onDrained?.({ entry, sent: how === 'send', routing });
    } catch (error) {
      // Released at once, not left to lapse: the next run sends (or records) it again, and a
      // copy of an event already queued is dropped by SQS and the notifier's markers.
      await sends.release(claimed.claim).catch(() => undefined);
      errors.push(error);
      out.failed++;
      continue;
    }
    if (how === 'send') {
      out.published++;
      out.events.push(entry.alert);
    } else out.muted++;
  }
  if (errors.length > 0) throw new AggregateError(errors, `${errors.length} alert(s) not sent`);
  return out;
}

const isResolve = (entry: OutboxEntry) => entry.alert.action === 'resolve';

/**
 * Moves the subject's record to the entry's transition, only from the one before it; a sent
 * trigger's record keeps where it went, for its resolve.
 */
async function moveRecord(
  state: StateStore,
  gsm: string,
  entry: OutboxEntry,
  muted: Muted | undefined,
  routing: Routing | undefined,
) {
  const kind = entry.alert.kind;
  await state.update(subjectKey(gsm, entry.subject), SubjectRecord, (record) => {
    const now = record?.alerts[kind] ?? CLOSED;
    if (now.seq !== entry.seq - 1) return undefined;
    // A new state: an outbreak's members start empty on its trigger, and end with its resolve.
    const next: KindState = {
      open: entry.alert.action === 'trigger',
      seq: entry.seq,
      openedAt: entry.alert.openedAt,
      changedAt: entry.alert.occurredAt,
      ...(muted ? { muted } : {}),
      ...(routing ? { routing } : {}),
    };
    return { alerts: { ...record?.alerts, [kind]: next } };
  });
}
