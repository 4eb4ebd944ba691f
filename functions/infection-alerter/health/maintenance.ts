import {
  HealthAlert,
  holdingWindow,
  type MutesDocument,
  type Routing,
} from '../../../lib/alerts/index.js';
import type { StateStore } from '../../../lib/aws/index.js';
import * as z from '../../../lib/zod.js';
import type { MutedEntries } from './lifecycle.js';
import { HeldBy, type OutboxEntry, outboxKey, SubjectRecord, subjectKey } from './records.js';

/**
 * Maintenance windows (docs/operations.md, "Maintenance windows"), one run's view of them for
 * one GSM:
 * - a trigger that a window active at the run's time matches is recorded held (muted
 *   `maintenance`), and not sent; its resolve is recorded and not sent either, since no
 *   receiver ever opened it. A resolve of an alert sent before the window is sent as usual;
 * - a held trigger, once moved onto its record, is also kept in a small index
 *   (`health/<GSM>/held/<subject>/<kind>.json`), so each run lists what is held, never every
 *   record;
 * - once no window matches a held alert that is still open, it is sent once, as a new
 *   transition of the same alert (`id#seq+1`, written create-only like any other, so a resolve
 *   written first wins and nothing is sent), titled and marked as raised during maintenance,
 *   routed as usual; its resolve then goes where it went.
 */
export interface MutesSource {
  document(): Promise<MutesDocument>;
}

/** A trigger a window holds: the index entry each run lists (npm start shows them too). */
export const HeldAlert = z.object({
  subject: z.string(),
  seq: z.number(),
  alert: HealthAlert,
  held: HeldBy,
});
export type HeldAlert = z.infer<typeof HeldAlert>;

const enc = encodeURIComponent;
export const heldPrefix = (gsm: string) => `health/${enc(gsm)}/held/`;
const heldKey = (gsm: string, subject: string, kind: string) =>
  `${heldPrefix(gsm)}${enc(subject)}/${kind}.json`;

export const MAINTENANCE_TITLE = 'Raised during maintenance: ';

/** The held trigger as it is sent once its windows have ended. */
export function raisedDuringMaintenance(held: HeldAlert, seq: number): HealthAlert {
  const { alert } = held;
  return {
    ...alert,
    eventId: `${alert.id}#${seq}`,
    action: 'trigger',
    title: `${MAINTENANCE_TITLE}${alert.title}`,
    facts: { ...alert.facts, raisedDuringMaintenance: `${held.held.window}: ${held.held.reason}` },
  };
}

export class Maintenance {
  /** Held alerts this run sent on (their release entries written). */
  released = 0;

  constructor(
    private readonly state: StateStore,
    private readonly gsm: string,
    private readonly doc: MutesDocument,
    private readonly now: number,
    private readonly route?: (alert: HealthAlert) => Promise<Routing>,
  ) {}

  /** The window holding a trigger now (recordTransitions' `hold`). */
  hold = (alert: HealthAlert): HeldBy | undefined => {
    const w = holdingWindow(this.doc, alert, this.now);
    return w ? { window: w.id, reason: w.reason } : undefined;
  };

  /**
   * What draining does with held entries: a trigger is indexed before its record moves (a run
   * that dies between the two leaves an index the release step tidies, never a held record it
   * cannot find); a resolve drops the index.
   */
  readonly entries: MutedEntries = {
    trigger: async (entry: OutboxEntry) => {
      const held: HeldAlert = {
        subject: entry.subject,
        seq: entry.seq,
        alert: entry.alert,
        held: entry.held ?? { window: 'unknown', reason: 'unknown' },
      };
      await this.state.put(heldKey(this.gsm, entry.subject, entry.alert.kind), held);
      return 'join';
    },
    resolve: (entry: OutboxEntry) =>
      this.state.delete(heldKey(this.gsm, entry.subject, entry.alert.kind)),
  };

  /**
   * Writes the trigger of every held alert still open that no active window matches any more;
   * the same run's drain sends them. Before the drain, so a window's end is one run away.
   */
  async release(): Promise<number> {
    for await (const { key } of this.state.list(heldPrefix(this.gsm))) {
      const found = await this.state.get(key, HeldAlert);
      if (!found) continue;
      const held = found.value;
      const record = await this.state.get(subjectKey(this.gsm, held.subject), SubjectRecord);
      const s = record?.value.alerts[held.alert.kind];
      const seq = s?.seq ?? 0;
      // Indexed before its record moved: the trigger is still being drained.
      if (seq < held.seq) continue;
      // Resolved while held, or moved on since: nothing to send.
      if (seq > held.seq || !s?.open || s.muted !== 'maintenance') {
        await this.state.delete(key);
        continue;
      }
      // Held while any window matches it: an overlapping or a new one keeps it held.
      if (this.hold(held.alert)) continue;
      const alert = raisedDuringMaintenance(held, seq + 1);
      const routing = await this.route?.(alert);
      const entry: OutboxEntry = {
        subject: held.subject,
        seq: seq + 1,
        createdAt: new Date(this.now).toISOString(),
        alert,
        ...(routing ? { routing } : {}),
      };
      // Create-only: a resolve (or another run's release) already written owns seq + 1.
      const key1 = outboxKey(this.gsm, held.subject, held.alert.kind, seq + 1);
      if (await this.state.create(key1, entry)) this.released++;
      await this.state.delete(key);
    }
    return this.released;
  }
}
