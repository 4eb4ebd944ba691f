import { HealthAlert, HealthKind } from '../../../lib/alerts/index.js';
import type { AlertPublisher, StateStore } from '../../../lib/aws/index.js';
import * as z from '../../../lib/zod.js';
import type { Observation } from './kinds.js';

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
 * SNS may so see an event twice (published, then the run died before the record moved); both
 * carry the same eventId (`id#seq`), on which the notifier de-duplicates per destination.
 */
const KindState = z.object({
  open: z.boolean(),
  seq: z.number().check(z.int(), z.minimum(0)),
  openedAt: z.nullable(z.string()),
  /** When its last transition happened (for the daily digest). */
  changedAt: z.optional(z.string()),
});
export const SubjectRecord = z.object({ alerts: z.partialRecord(HealthKind, KindState) });
export type SubjectRecord = z.infer<typeof SubjectRecord>;

export const OutboxEntry = z.object({
  subject: z.string(),
  seq: z.number(),
  createdAt: z.string(),
  alert: HealthAlert,
});
export type OutboxEntry = z.infer<typeof OutboxEntry>;

const enc = encodeURIComponent;
const root = (gsm: string) => `health/${enc(gsm)}/`;
export const subjectsPrefix = (gsm: string) => `${root(gsm)}subjects/`;
export const subjectKey = (gsm: string, subject: string) =>
  `${subjectsPrefix(gsm)}${enc(subject)}.json`;
export const outboxPrefix = (gsm: string) => `${root(gsm)}outbox/`;
const outboxKey = (gsm: string, subject: string, kind: HealthKind, seq: number) =>
  `${outboxPrefix(gsm)}${enc(subject)}/${kind}/${String(seq).padStart(10, '0')}.json`;

/** The subject name a record is kept under: the MachineID, or `site:` and the keycode. */
export const siteSubject = (site: string) => `site:${site}`;

/** Subjects that have a record, so a walk reads records only where one can exist. */
export async function knownSubjects(state: StateStore, gsm: string): Promise<Set<string>> {
  const prefix = subjectsPrefix(gsm);
  const known = new Set<string>();
  for await (const { key } of state.list(prefix))
    known.add(decodeURIComponent(key.slice(prefix.length, -'.json'.length)));
  return known;
}

const CLOSED = { open: false, seq: 0, openedAt: null };

/**
 * Writes an outbox entry for every observation that is a transition against the subject's
 * record. Answers how many entries this call created (an existing one is another run's).
 */
export async function recordTransitions(
  state: StateStore,
  gsm: string,
  subject: string,
  observations: readonly Observation[],
  now: number,
): Promise<number> {
  if (observations.length === 0) return 0;
  const record = await state.get(subjectKey(gsm, subject), SubjectRecord);
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
    const entry: OutboxEntry = { subject, seq, createdAt: new Date(now).toISOString(), alert };
    if (await state.create(outboxKey(gsm, subject, o.kind, seq), entry)) created++;
  }
  return created;
}

export interface Drained {
  published: number;
  /** Entries whose transition the record already showed: deleted unsent. */
  stale: number;
  /** Entries left for a later run because SNS refused them. */
  failed: number;
  events: HealthAlert[];
}

/**
 * Publishes every pending transition of a GSM and moves the records. A refused publish leaves
 * its entry for the next run and fails this one (after the others were sent).
 */
export async function drainOutbox(
  deps: { state: StateStore; alerts: AlertPublisher },
  gsm: string,
): Promise<Drained> {
  const { state } = deps;
  const out: Drained = { published: 0, stale: 0, failed: 0, events: [] };
  const errors: unknown[] = [];
  for await (const { key } of state.list(outboxPrefix(gsm))) {
    const found = await state.get(key, OutboxEntry);
    if (!found) continue; // drained by an overlapping run meanwhile
    const entry = found.value;
    const kind = entry.alert.kind;
    const recordKey = subjectKey(gsm, entry.subject);
    const current = (await state.get(recordKey, SubjectRecord))?.value.alerts[kind] ?? CLOSED;
    if (current.seq >= entry.seq) {
      await state.delete(key);
      out.stale++;
      continue;
    }
    // An earlier transition is still pending (its entry sorts first and failed): keep order.
    if (current.seq !== entry.seq - 1) continue;
    try {
      await deps.alerts.publishHealth(entry.alert);
    } catch (error) {
      errors.push(error);
      out.failed++;
      continue;
    }
    await state.update(recordKey, SubjectRecord, (record) => {
      const now = record?.alerts[kind] ?? CLOSED;
      if (now.seq !== entry.seq - 1) return undefined;
      return {
        alerts: {
          ...record?.alerts,
          [kind]: {
            open: entry.alert.action === 'trigger',
            seq: entry.seq,
            openedAt: entry.alert.openedAt,
            changedAt: entry.alert.occurredAt,
          },
        },
      };
    });
    await state.delete(key);
    out.published++;
    out.events.push(entry.alert);
  }
  if (errors.length > 0) throw new AggregateError(errors, `${errors.length} alert(s) not sent`);
  return out;
}
