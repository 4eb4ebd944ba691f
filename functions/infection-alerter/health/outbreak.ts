import {
  type HealthAlert,
  type HealthKind,
  type Routing,
  SITE_KINDS,
} from '../../../lib/alerts/index.js';
import type { AlertPublisher, DeliveryQueue, StateStore } from '../../../lib/aws/index.js';
import type { EvaluationContext, Observation } from './kinds.js';
import {
  type Drained,
  type DrainOptions,
  drainOutbox,
  type MutedEntries,
  type RecordOptions,
  recordTransitions,
} from './lifecycle.js';
import { memberName, outbreakObservation } from './outbreak-alert.js';
import {
  type KnownSubjects,
  OutboxEntry,
  type OutbreakMembers,
  outboxKey,
  outbreakSubject,
  outbreakSubjectsPrefix,
  readSubject,
  SubjectRecord,
  subjectKey,
} from './records.js';

/**
 * Outbreaks (docs/operations.md, "Outbreaks"): when more than `threshold` endpoints of one site
 * trigger the same kind in one run, the site gets one grouped alert, and the endpoints' own
 * alerts are recorded, not sent. It is a health alert like the others, on its own subject
 * (`outbreak:<KC>`), triggered and resolved through the same outbox; its record keeps who
 * joined it and who is still open. The rule that settles every case: nothing is ever left open
 * at a receiver, and nothing is open without an alert a receiver holds open.
 * - An endpoint's transitions are muted only while its incarnation belongs to the outbreak: a
 *   trigger joins it (so it holds it open), its resolve leaves it; the resolve of an endpoint
 *   alerted on its own before the outbreak began is sent.
 * - A trigger at the site and kind while the outbreak is open joins it, unsent; it is counted
 *   and listed in the outbreak's next event, its resolve.
 * - The last member leaving closes the outbreak (no one joins after that) and records its
 *   resolve, which the same run sends.
 * - When in doubt, an endpoint's trigger is sent on its own: the outbreak it was muted for is
 *   closing, or was never written (a run died between marking and opening it).
 * Site kinds (licences) are never grouped.
 */
export const DEFAULT_OUTBREAK_THRESHOLD = 5;

interface Member {
  key: string;
  subject: string;
  name: string;
}
const NONE: OutbreakMembers = { members: [], open: [] };

type Deps = { state: StateStore; alerts: AlertPublisher; deliveries: DeliveryQueue };

/** One run's outbreaks for one GSM: counts its triggers, opens outbreaks, keeps their members. */
export class Outbreaks {
  /** This run's unmuted endpoint triggers, by kind and site. */
  private readonly triggers = new Map<string, { site: string; kind: HealthKind; of: Member[] }>();
  /** The outbreak records of sites, read once a run (null: none). */
  private readonly records = new Map<string, SubjectRecord | null>();
  opened = 0;
  resolved = 0;
  /** An outbreak closed since the last drain: its resolve waits for the next one. */
  private closed = false;

  constructor(
    private readonly state: StateStore,
    private readonly ctx: EvaluationContext,
    private readonly threshold: number,
    /** Subjects with a record: a site without an outbreak record needs no read. */
    private readonly known: KnownSubjects,
    /** Where a trigger goes, decided as its entry is written (health/lifecycle.ts). */
    private readonly route?: (alert: HealthAlert) => Promise<Routing>,
    /** The maintenance window holding a trigger (health/maintenance.ts): held, not counted. */
    private readonly hold?: RecordOptions['hold'],
  ) {}

  /** Records an endpoint's transitions: muted where its site's outbreak is open, and counted. */
  async record(subject: string, site: string, observations: readonly Observation[]) {
    const outbreak = await this.current(site);
    return recordTransitions(this.state, this.ctx.gsm, subject, observations, this.ctx.now, {
      mute: (kind) => {
        const s = outbreak?.alerts[kind];
        return Boolean(s?.open && !s.outbreak?.closing);
      },
      onCreated: (entry, key) => this.count(entry, key),
      known: this.known,
      ...(this.route ? { route: this.route } : {}),
      ...(this.hold ? { hold: this.hold } : {}),
    });
  }

  private async current(site: string) {
    const subject = outbreakSubject(site);
    if (!this.known.has(subject)) return null;
    let record = this.records.get(site);
    if (record === undefined) {
      record = (await readSubject(this.state, this.ctx.gsm, subject, this.known))?.value ?? null;
      this.records.set(site, record);
    }
    return record;
  }

  private count(entry: OutboxEntry, key: string) {
    const { alert } = entry;
    if (alert.action !== 'trigger' || entry.muted || alert.machineId === null) return;
    if (SITE_KINDS.includes(alert.kind)) return;
    const group = `${alert.kind} ${alert.site}`;
    const of = this.triggers.get(group)?.of ?? [];
    of.push({ key, subject: entry.subject, name: memberName(alert) });
    this.triggers.set(group, { site: alert.site, kind: alert.kind, of });
  }

  /**
   * Opens an outbreak for every kind and site with more than `threshold` triggers in this run:
   * marks their entries muted, then writes the outbreak's trigger. In that order, a run that
   * dies between the two leaves muted entries without an outbreak, which are sent on their own,
   * rather than an outbreak without members. Answers the transitions written.
   */
  async open(): Promise<number> {
    let created = 0;
    for (const { site, kind, of } of this.triggers.values()) {
      if (of.length <= this.threshold) continue;
      const marked: Member[] = [];
      for (const member of of) if (await this.mark(member.key)) marked.push(member);
      if (marked.length === 0) continue;
      const names = marked.map((m) => m.name);
      const n = await this.transition(site, kind, true, names);
      created += n;
      this.opened += n;
    }
    this.triggers.clear();
    return created;
  }

  private async mark(key: string): Promise<boolean> {
    try {
      return await this.state.update(key, OutboxEntry, (entry) =>
        entry && !entry.muted ? { ...entry, muted: 'outbreak' } : undefined,
      );
    } catch (error) {
      // An overlapping run sent it between the read and the write: it went out on its own.
      if ((await this.state.get(key, OutboxEntry)) === undefined) return false;
      throw error;
    }
  }

  private transition(site: string, kind: HealthKind, active: boolean, names: string[]) {
    const observation = outbreakObservation(this.ctx, site, kind, active, names);
    const subject = outbreakSubject(site);
    return recordTransitions(this.state, this.ctx.gsm, subject, [observation], this.ctx.now, {
      ...(this.route ? { route: this.route } : {}),
    });
  }

  /** What draining does with the muted entries: joins and leaves outbreaks. */
  readonly muted: MutedEntries = {
    trigger: async (entry) => {
      const { site, kind } = entry.alert;
      const name = memberName(entry.alert);
      let joined = false as boolean;
      let seq = 0;
      await this.update(site, kind, (s) => {
        seq = s?.seq ?? 0;
        joined = Boolean(s?.open && !s.outbreak?.closing);
        if (!s || !joined) return undefined;
        const o = s.outbreak ?? NONE;
        const member = o.members.some((m) => m.subject === entry.subject);
        if (member && o.open.includes(entry.subject)) return undefined;
        return {
          ...o,
          members: member ? o.members : [...o.members, { subject: entry.subject, name }],
          open: [...o.open.filter((x) => x !== entry.subject), entry.subject],
        };
      });
      if (joined) return 'join';
      // Its outbreak's trigger is written and not out yet (refused, or another run's): wait.
      const next = outboxKey(this.ctx.gsm, outbreakSubject(site), kind, seq + 1);
      const pending = await this.state.get(next, OutboxEntry);
      return pending?.value.alert.action === 'trigger' ? 'wait' : 'send';
    },
    resolve: (entry) => this.leave(entry.alert.site, entry.alert.kind, entry.subject),
  };

  /**
   * Takes a member out of the outbreak's open ones; when none is left, closes the outbreak
   * (from then on no one joins it) and records its resolve. Done again after a crash, it finds
   * the member gone and the outbreak closing, and records the same resolve (written once). One
   * that is not a member (of an earlier outbreak) changes nothing. Without a subject (the
   * sweep), it closes an outbreak with no open member.
   */
  private async leave(site: string, kind: HealthKind, subject?: string): Promise<void> {
    let closing = undefined as OutbreakMembers | undefined;
    await this.update(site, kind, (s) => {
      closing = undefined;
      if (!s?.open) return undefined;
      const o = s.outbreak ?? NONE;
      if (subject !== undefined && !o.open.includes(subject)) {
        if (o.closing) closing = o;
        return undefined;
      }
      const open = o.open.filter((x) => x !== subject);
      if (open.length > 0) return open.length === o.open.length ? undefined : { ...o, open };
      closing = o;
      return o.closing ? undefined : { ...o, open, closing: true };
    });
    if (!closing) return;
    this.closed = true;
    const names = closing.members.map((m) => m.name);
    this.resolved += await this.transition(site, kind, false, names);
  }

  /** Changes the members of a site's outbreak of a kind (undefined: no change). */
  private update(
    site: string,
    kind: HealthKind,
    next: (s: SubjectRecord['alerts'][HealthKind]) => OutbreakMembers | undefined,
  ) {
    const key = subjectKey(this.ctx.gsm, outbreakSubject(site));
    return this.state.update(key, SubjectRecord, (record) => {
      const s = record?.alerts[kind];
      const outbreak = next(s);
      if (!record || !s || !outbreak) return undefined;
      return { alerts: { ...record.alerts, [kind]: { ...s, outbreak } } };
    });
  }

  /**
   * With the full check: closes every outbreak open with no open member that has been so for
   * longer than a run's claim can hold a member back (members all sent on their own, when
   * overlapping runs raced), so that none stays open at a receiver for nothing.
   */
  async sweep(minAgeMs: number): Promise<void> {
    const prefix = outbreakSubjectsPrefix(this.ctx.gsm);
    for await (const { key, etag } of this.state.list(prefix)) {
      const site = decodeURIComponent(key.slice(prefix.length, -'.json'.length));
      const record = await this.state.getListed(key, etag, SubjectRecord);
      for (const [kind, s] of Object.entries(record?.value.alerts ?? {}))
        if (
          s?.open &&
          !s.outbreak?.open.length &&
          Date.parse(s.changedAt ?? '') < this.ctx.now - minAgeMs
        )
          await this.leave(site, kind as HealthKind);
    }
  }

  /**
   * Drains the outbox with the outbreaks' muted entries; the resolve of an outbreak whose last
   * member left in that drain (or that `sweep` closed) goes out in a second one.
   */
  async drain(
    deps: Deps,
    options: { sendLeaseMs: number; sweep: boolean } & Pick<DrainOptions, 'onDrained' | 'held'>,
  ): Promise<Drained> {
    const { sweep: _sweep, ...drainOptions } = options;
    const drain = () => drainOutbox(deps, this.ctx.gsm, { ...drainOptions, muted: this.muted });
    this.closed = false;
    const first = await drain();
    if (options.sweep) await this.sweep(options.sendLeaseMs);
    if (!this.closed) return first;
    const second = await drain();
    return {
      published: first.published + second.published,
      muted: first.muted + second.muted,
      stale: first.stale + second.stale,
      failed: first.failed + second.failed,
      events: [...first.events, ...second.events],
    };
  }
}
