import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Observation } from '../../functions/infection-alerter/health/kinds.js';
import {
  drainOutbox,
  recordTransitions,
  SEND_LEASE_MS,
} from '../../functions/infection-alerter/health/lifecycle.js';
import { Maintenance } from '../../functions/infection-alerter/health/maintenance.js';
import { SubjectRecord, subjectKey } from '../../functions/infection-alerter/health/records.js';
import {
  type HealthAlert,
  type HealthKind,
  type MaintenanceWindow,
  MUTES_SCHEMA,
  type MutesDocument,
  type Routing,
} from '../../lib/alerts/index.js';
import { type AlertPublisher, type DeliveryQueue, StateStore } from '../../lib/aws/index.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

/**
 * Maintenance windows across their edges (health/maintenance.ts), against moto's S3: each
 * test is a few alerter runs at chosen instants (no waiting), and asserts what a receiver got.
 */
let aws: LocalAws;
let state: StateStore;
beforeAll(async () => {
  aws = await startLocalAws();
  state = new StateStore(aws.clients.s3, (await aws.provision()).bucket);
});
afterAll(async () => aws?.moto.stop());

const T0 = Date.parse('2026-06-15T10:00:00Z');
const MIN = 60_000;
const at = (minutes: number) => T0 + minutes * MIN;
const iso = (minutes: number) => new Date(at(minutes)).toISOString();

function window(id: string, from: number, to: number, match: MaintenanceWindow['match']) {
  return { id, match, from: iso(from), to: iso(to), reason: `reason ${id}`, by: 'ana' };
}
const doc = (...windows: MaintenanceWindow[]): MutesDocument => ({ schema: MUTES_SCHEMA, windows });

/** What the receivers got, in order: `infected/m1#2 trigger "title" {facts}`. */
function receiver() {
  const q = {
    sent: [] as HealthAlert[],
    route: async (): Promise<Routing> => ({
      route: 'default',
      destinations: ['slack'],
      fields: {},
    }),
    enqueue: async (alert: HealthAlert, routing?: Routing) => {
      q.sent.push(alert);
      return routing ?? (await q.route());
    },
    publishHealth: async () => 'id',
  };
  return q;
}

/** One alerter for a fresh GSM: `run(minute, active)` is one run seeing the endpoint so. */
function alerter(mutes: MutesDocument, site = { site: 'KC-ACME', siteName: 'Acme Dental' }) {
  const gsm = `G-${randomBytes(4).toString('hex')}`;
  const q = receiver();
  const deps = {
    state,
    alerts: q as unknown as AlertPublisher,
    deliveries: q as unknown as DeliveryQueue,
  };
  const observation = (active: boolean, now: number, kind: HealthKind): Observation => ({
    kind,
    active,
    alert: {
      id: `${kind}/m1`,
      kind,
      severity: 'critical',
      gsm,
      consoleName: 'Console',
      ...site,
      hostName: 'HOST',
      machineId: 'm1',
      title: `m1 ${kind}`,
      summary: 's',
      occurredAt: new Date(now).toISOString(),
      facts: {},
    },
  });
  return {
    gsm,
    sent: q.sent,
    /** The pass's order: record the walk's transitions, release ended holds, drain. */
    async run(minute: number, active?: boolean, kind: HealthKind = 'infected', windows = mutes) {
      const now = at(minute);
      const m = new Maintenance(state, gsm, windows, now, q.route);
      if (active !== undefined)
        await recordTransitions(state, gsm, 'm1', [observation(active, now, kind)], now, {
          route: q.route,
          hold: m.hold,
        });
      const released = await m.release();
      await drainOutbox(deps, gsm, { sendLeaseMs: SEND_LEASE_MS, held: m.entries });
      return released;
    },
    lines: () =>
      q.sent.map(
        (a) =>
          `${a.eventId} ${a.action}${a.facts.raisedDuringMaintenance ? ` [${a.facts.raisedDuringMaintenance}]` : ''}`,
      ),
    record: async (kind: HealthKind = 'infected') =>
      (await state.get(subjectKey(gsm, 'm1'), SubjectRecord))?.value.alerts[kind],
  };
}

const ACME = window('w1', 0, 60, { site: 'KC-ACME' });

describe('Class: Maintenance (maintenance windows)', () => {
  it('holds a trigger at the first instant of a window, and records it held', async () => {
    const a = alerter(doc(ACME));
    await a.run(0, true);
    expect(a.sent).toEqual([]);
    expect(await a.record()).toMatchObject({ open: true, seq: 1, muted: 'maintenance' });
  });

  it('sends a trigger one minute before the window, and its resolve during it', async () => {
    const a = alerter(doc(ACME));
    await a.run(-1, true);
    await a.run(30, false);
    expect(a.lines()).toEqual(['infected/m1#1 trigger', 'infected/m1#2 resolve']);
  });

  it('sends a problem still open at the end of the window once, marked, then its resolve', async () => {
    const a = alerter(doc(ACME));
    await a.run(59, true); // the window's last minute
    await a.run(59.9);
    expect(a.sent).toEqual([]);
    expect(await a.run(60)).toBe(1); // `to` itself is outside the window
    await a.run(61);
    await a.run(62);
    expect(a.lines()).toEqual(['infected/m1#2 trigger [w1: reason w1]']);
    expect(a.sent[0]?.title).toBe('Raised during maintenance: m1 infected');
    expect(a.sent[0]?.openedAt).toBe(iso(59));
    await a.run(90, false);
    expect(a.lines()).toEqual(['infected/m1#2 trigger [w1: reason w1]', 'infected/m1#3 resolve']);
    expect(await a.record()).toMatchObject({ open: false, seq: 3 });
  });

  it('sends nothing for a problem that cleared during the window, then or after', async () => {
    const a = alerter(doc(ACME));
    await a.run(10, true);
    await a.run(20, false);
    await a.run(60);
    await a.run(61);
    expect(a.sent).toEqual([]);
    expect(await a.record()).toMatchObject({ open: false, seq: 2 });
    // The next incarnation, after the window, is an ordinary alert.
    await a.run(70, true);
    expect(a.lines()).toEqual(['infected/m1#3 trigger']);
  });

  it('holds while any of overlapping windows is active, and sends once the last one ends', async () => {
    const kind = window('w2', 30, 120, { kind: 'infected' });
    const a = alerter(doc(ACME, kind));
    await a.run(10, true);
    await a.run(60); // ACME's window ended; the kind's still holds it
    await a.run(119);
    expect(a.sent).toEqual([]);
    await a.run(120);
    expect(a.lines()).toEqual(['infected/m1#2 trigger [w1: reason w1]']);
  });

  it('matches a site by its name, and a kind only for that kind', async () => {
    const byName = window('w3', 0, 60, { site: 'acme dental', kind: 'offline' });
    const a = alerter(doc(byName));
    await a.run(5, true, 'offline');
    await a.run(5, true, 'infected');
    expect(a.lines()).toEqual(['infected/m1#1 trigger']);
    expect(await a.record('offline')).toMatchObject({ open: true, muted: 'maintenance' });
  });

  it('sends held problems when the window is removed early (unmute)', async () => {
    const a = alerter(doc(ACME));
    await a.run(5, true);
    await a.run(6, undefined, 'infected', doc());
    expect(a.lines()).toEqual(['infected/m1#2 trigger [w1: reason w1]']);
  });

  it('sends nothing for a held problem that clears in the run its window ends', async () => {
    const a = alerter(doc(ACME));
    await a.run(30, true);
    // The run at the end sees the problem clear before it releases: the resolve wins seq 2.
    await a.run(60, false);
    expect(a.sent).toEqual([]);
  });
});
