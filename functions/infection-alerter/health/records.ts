import { HealthAlert, HealthKind, Routing } from '../../../lib/alerts/index.js';
import type { StateStore, Stored } from '../../../lib/aws/index.js';
import * as z from '../../../lib/zod.js';

// What the lifecycle of health alerts keeps in S3 (health/lifecycle.ts): a record per subject
// and kind, and the outbox of transitions not yet sent, under `state/health/<GSM>/`.

/**
 * An outbreak's members (health/outbreak.ts), on the outbreak's own record: every endpoint that
 * joined this incarnation (for the resolve's list), those still open, and `closing` once the last
 * cleared and its resolve was decided (no endpoint joins it after that).
 */
export const OutbreakMembers = z.object({
  members: z.array(z.object({ subject: z.string(), name: z.string() })),
  open: z.array(z.string()),
  closing: z.optional(z.boolean()),
});
export type OutbreakMembers = z.infer<typeof OutbreakMembers>;

/**
 * Why a transition was recorded and not sent: its endpoint joined its site's outbreak
 * (health/outbreak.ts), or a maintenance window held it (health/maintenance.ts).
 */
export const Muted = z.enum(['outbreak', 'maintenance']);
export type Muted = z.infer<typeof Muted>;

/** The window that held a trigger, for the alert sent if it outlasts the window. */
export const HeldBy = z.object({ window: z.string(), reason: z.string() });
export type HeldBy = z.infer<typeof HeldBy>;

const KindState = z.object({
  open: z.boolean(),
  seq: z.number().check(z.int(), z.minimum(0)),
  openedAt: z.nullable(z.string()),
  /** When its last transition happened (for the daily digest). */
  changedAt: z.optional(z.string()),
  /** This incarnation's trigger was not sent: its site's outbreak, or a maintenance window. */
  muted: z.optional(Muted),
  outbreak: z.optional(OutbreakMembers),
  /**
   * Where this incarnation's trigger went (lib/alerts/routing.ts): its resolve goes to the
   * same destinations, whatever the routing document says by then, or a routing edit between
   * the two would leave an incident open at a receiver forever. Absent on records written
   * before routing, and on a trigger that was not sent: the resolve is routed afresh.
   */
  routing: z.optional(Routing),
});
export type KindState = z.infer<typeof KindState>;
export const SubjectRecord = z.object({ alerts: z.partialRecord(HealthKind, KindState) });
export type SubjectRecord = z.infer<typeof SubjectRecord>;

export const OutboxEntry = z.object({
  subject: z.string(),
  seq: z.number(),
  createdAt: z.string(),
  alert: HealthAlert,
  /** Recorded, not sent: an endpoint grouped into its site's outbreak, or held by a window. */
  muted: z.optional(Muted),
  /** The window that held this trigger (muted `maintenance`). */
  held: z.optional(HeldBy),
  /**
   * Where it goes, decided when it was written: a trigger's route, a resolve's trigger's. A
   * send retried by a later run goes to the same destinations even if the routing changed.
   */
  routing: z.optional(Routing),
});
export type OutboxEntry = z.infer<typeof OutboxEntry>;

const enc = encodeURIComponent;
const root = (gsm: string) => `health/${enc(gsm)}/`;
export const subjectsPrefix = (gsm: string) => `${root(gsm)}subjects/`;
export const subjectKey = (gsm: string, subject: string) =>
  `${subjectsPrefix(gsm)}${enc(subject)}.json`;
export const outboxPrefix = (gsm: string) => `${root(gsm)}outbox/`;
export const outboxKey = (gsm: string, subject: string, kind: HealthKind, seq: number) =>
  `${outboxPrefix(gsm)}${enc(subject)}/${kind}/${String(seq).padStart(10, '0')}.json`;

/** The subject name a record is kept under: the MachineID, or `site:` and the keycode. */
export const siteSubject = (site: string) => `site:${site}`;
/** The subject of a site's outbreaks (health/outbreak.ts), one kind each. */
export const OUTBREAK = 'outbreak:';
export const outbreakSubject = (site: string) => `${OUTBREAK}${site}`;
/** Where the outbreaks' records, and their outbox entries, are. */
export const outbreakSubjectsPrefix = (gsm: string) => `${subjectsPrefix(gsm)}${enc(OUTBREAK)}`;
export const outbreakOutboxPrefix = (gsm: string) => `${outboxPrefix(gsm)}${enc(OUTBREAK)}`;

/**
 * Subjects that have a record, each with the ETag the run's listing gave: a walk reads records
 * only where one can exist, and a warm function only those that changed (`readSubject`).
 */
export type KnownSubjects = ReadonlyMap<string, string>;

export async function knownSubjects(state: StateStore, gsm: string): Promise<KnownSubjects> {
  const prefix = subjectsPrefix(gsm);
  const known = new Map<string, string>();
  for await (const { key, etag } of state.list(prefix))
    known.set(decodeURIComponent(key.slice(prefix.length, -'.json'.length)), etag);
  return known;
}

/**
 * A subject's record: as the run's listing saw it when it was listed (StateStore.getListed,
 * no request where this process holds that version), else read. A record that moved since is
 * caught as any stale read is: the write over it is conditional, and the outbox key of each
 * transition is claimed once.
 */
export function readSubject(
  state: StateStore,
  gsm: string,
  subject: string,
  known?: KnownSubjects,
): Promise<Stored<SubjectRecord> | undefined> {
  const key = subjectKey(gsm, subject);
  const etag = known?.get(subject);
  return etag === undefined
    ? state.get(key, SubjectRecord)
    : state.getListed(key, etag, SubjectRecord);
}
