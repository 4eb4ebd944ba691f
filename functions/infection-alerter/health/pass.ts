import { type HealthAlert, type HealthKind, NO_MUTES } from '../../../lib/alerts/index.js';
import type { AlertPublisher, DeliveryQueue, StateStore } from '../../../lib/aws/index.js';
import type { AgentStatusGroup, SkywatchClient } from '../../../lib/index.js';
import type { PageLinker } from '../../../lib/links/page-links.js';
import * as z from '../../../lib/zod.js';
import { UNBOUNDED, type WalkBudget } from '../walk-budget.js';
import type { WalkReport } from '../walk-state.js';
import { buildDigest, digestMessage } from './digest.js';
import { walkFullCheck } from './full-check.js';
import {
  type EvaluationContext,
  evaluateEndpoint,
  evaluateSite,
  type LicenceFacts,
  readLicence,
} from './kinds.js';
import { type Drained, type DrainOptions, recordTransitions, SEND_LEASE_MS } from './lifecycle.js';
import { Maintenance, type MutesSource } from './maintenance.js';
import { loadNames } from './names.js';
import { DEFAULT_OUTBREAK_THRESHOLD, Outbreaks } from './outbreak.js';
import { type KnownSubjects, knownSubjects, siteSubject } from './records.js';
import { loadRules, ruleFor } from './rules.js';

/** The status groups the health kinds read. */
export const HEALTH_GROUPS: AgentStatusGroup[] = [
  'BasicInfo',
  'ExtendedInfo',
  'EnabledFeatures',
  'OSAndVersions',
];

export interface HealthSettings {
  /** Key of the rules object under the bucket's `state/`. */
  rulesKey: string;
  /** Hours between full checks (every endpoint: what time alone changes, offline and licence). */
  fullCheckHours: number;
  pageSize: number;
  /** The bucket the report builder writes the daily pages to, for the digest's link. */
  reportBucket?: string;
  /** Signs the digest's link to the latest page when the report site is on. */
  pageLinks?: PageLinker;
  now?: () => number;
  onNameError?: (error: unknown) => void;
  /** When the full check stops at a page boundary and leaves the rest to the next run. */
  budget?: WalkBudget;
  /** How long one run's claim on sending a transition holds off overlapping runs. */
  sendLeaseMs?: number;
  /**
   * More endpoints of one site than this triggering one kind in a run make an outbreak: one
   * alert for the site, theirs recorded, not sent (health/outbreak.ts). Default 5.
   */
  outbreakThreshold?: number;
  /** Told of each transition drained, sent or recorded unsent (the alert history). */
  onDrained?: DrainOptions['onDrained'];
  /** The maintenance windows (health/maintenance.ts); without them, nothing is held. */
  mutes?: MutesSource;
}

export interface HealthOutcome {
  observed: number;
  /** Transitions this run wrote to the outbox. */
  transitions: number;
  /** Kinds an entry lacked the fields for, by kind. */
  skipped: Partial<Record<HealthKind, number>>;
  /** The full check completed in this run (and the digest went out). */
  fullCheck: boolean;
  /** This run's part of a full check, when one was due or under way. */
  fullCheckWalk?: WalkReport;
  published: number;
  /** Transitions recorded and not sent: endpoints of an outbreak. */
  muted: number;
  /** Outbreaks this run opened, and resolved. */
  outbreaks: { opened: number; resolved: number };
  /** Alerts held by maintenance windows that this run sent on, their windows over. */
  released: number;
  stale: number;
}

const FullCheck = z.object({ at: z.string() });
const fullCheckKey = (gsm: string) => `health/${encodeURIComponent(gsm)}/full-check.json`;

type Deps = {
  client: SkywatchClient;
  state: StateStore;
  alerts: AlertPublisher;
  deliveries: DeliveryQueue;
};

/**
 * One run's health alerting for one GSM: `observe` takes each status entry the walk of changes
 * reads (the endpoints changed since its cursor: changes-walk.ts), `finish` runs the periodic
 * full check when it is due (or goes on with one an earlier run paused at its deadline:
 * health/full-check.ts), evaluates the site kinds and sends every pending transition.
 */
export class HealthPass {
  private readonly outcome: HealthOutcome = {
    observed: 0,
    transitions: 0,
    skipped: {},
    fullCheck: false,
    published: 0,
    muted: 0,
    outbreaks: { opened: 0, resolved: 0 },
    released: 0,
    stale: 0,
  };
  private readonly licences = new Map<string, LicenceFacts>();
  /** Sites of the endpoints that have or get a record, for the digest. */
  private readonly sites = new Map<string, string>();

  private constructor(
    private readonly deps: Deps,
    private readonly gsm: string,
    private readonly settings: HealthSettings,
    private readonly ctx: EvaluationContext,
    private readonly known: KnownSubjects,
    private readonly outbreaks: Outbreaks,
    private readonly maintenance: Maintenance,
  ) {}

  static async start(deps: Deps, gsm: string, settings: HealthSettings): Promise<HealthPass> {
    const now = (settings.now ?? Date.now)();
    const rules = await loadRules(deps.state, settings.rulesKey);
    const names = await loadNames(deps.client, gsm, now, settings.onNameError ?? (() => {}));
    const ctx: EvaluationContext = {
      gsm,
      names,
      now,
      rule: (site, kind) => ruleFor(rules, gsm, site, kind),
    };
    const known = await knownSubjects(deps.state, gsm);
    const threshold = settings.outbreakThreshold ?? DEFAULT_OUTBREAK_THRESHOLD;
    const route = (alert: HealthAlert) => deps.deliveries.route(alert);
    // Read once a run, so every trigger of the run is judged against the same windows.
    const mutes = (await settings.mutes?.document()) ?? NO_MUTES;
    const maintenance = new Maintenance(deps.state, gsm, mutes, now, route);
    const outbreaks = new Outbreaks(deps.state, ctx, threshold, known, route, maintenance.hold);
    return new HealthPass(deps, gsm, settings, ctx, known, outbreaks, maintenance);
  }

  /** Evaluates one status entry; writes the transitions it shows. */
  observe = async (entry: Record<string, unknown>): Promise<void> => {
    this.outcome.observed++;
    const { observations, skipped } = evaluateEndpoint(entry, this.ctx);
    for (const kind of skipped) this.outcome.skipped[kind] = (this.outcome.skipped[kind] ?? 0) + 1;
    const site = typeof entry.KC === 'string' ? entry.KC : undefined;
    if (site && !this.licences.has(site)) {
      const licence = readLicence(entry);
      if (licence) this.licences.set(site, licence);
    }
    const subject = String(entry.MachineID);
    // No record and nothing active: nothing can start or clear, so no state call.
    if (!observations.some((o) => o.active) && !this.known.has(subject)) return;
    if (site) this.sites.set(subject, site);
    // evaluateEndpoint observes nothing without a site: an entry without KC records nothing.
    if (site) this.outcome.transitions += await this.outbreaks.record(subject, site, observations);
  };

  async finish(): Promise<HealthOutcome & { events: Drained['events'] }> {
    const { state } = this.deps;
    const marker = await state.get(fullCheckKey(this.gsm), FullCheck);
    const due =
      !marker ||
      this.ctx.now - Date.parse(marker.value.at) >= this.settings.fullCheckHours * 3_600_000;
    // A full check under way goes on whether or not a new one is due.
    const walked = await walkFullCheck(
      this.deps,
      this.gsm,
      {
        groups: HEALTH_GROUPS,
        pageSize: this.settings.pageSize,
        budget: this.settings.budget ?? UNBOUNDED,
        now: this.ctx.now,
        startNew: due,
      },
      this.observe,
      this.sites,
    );
    if (walked) this.outcome.fullCheckWalk = walked.report;
    const checked = walked?.completed ?? false;
    for (const [site, licence] of this.licences) {
      const observations = evaluateSite(site, licence, this.ctx);
      const subject = siteSubject(site);
      if (!observations.some((o) => o.active) && !this.known.has(subject)) continue;
      this.outcome.transitions += await recordTransitions(
        state,
        this.gsm,
        subject,
        observations,
        this.ctx.now,
        {
          route: (alert) => this.deps.deliveries.route(alert),
          hold: this.maintenance.hold,
          known: this.known,
        },
      );
    }
    // The run's triggers are all counted: above the threshold, a site's kind is an outbreak.
    this.outcome.transitions += await this.outbreaks.open();
    this.outcome.released = await this.maintenance.release();
    this.outcome.transitions += this.outcome.released;
    const drained = await this.outbreaks.drain(this.deps, {
      sendLeaseMs: this.settings.sendLeaseMs ?? SEND_LEASE_MS,
      sweep: checked,
      held: this.maintenance.entries,
      ...(this.settings.onDrained ? { onDrained: this.settings.onDrained } : {}),
    });
    this.outcome.transitions += this.outbreaks.resolved;
    this.outcome.outbreaks = { opened: this.outbreaks.opened, resolved: this.outbreaks.resolved };
    if (checked) {
      // The daily digest goes with the full check: once a day, after the day's transitions.
      const digest = await buildDigest(
        state,
        this.gsm,
        this.ctx.names,
        (subject) => this.sites.get(subject),
        this.ctx.now,
        this.settings.reportBucket,
        this.settings.pageLinks,
      );
      const message = digestMessage(digest);
      await this.deps.alerts.publishMessage(message.metadata.summary, message, {
        schema: 'skywatch.digest/v1',
        kind: 'digest',
        severity: 'info',
        gsm: this.gsm,
      });
      await state.put(fullCheckKey(this.gsm), { at: new Date(this.ctx.now).toISOString() });
      this.outcome.fullCheck = true;
    }
    return {
      ...this.outcome,
      published: drained.published,
      muted: drained.muted,
      stale: drained.stale,
      events: drained.events,
    };
  }
}
