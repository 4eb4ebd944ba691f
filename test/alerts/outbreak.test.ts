import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDigest } from '../../functions/infection-alerter/health/digest.js';
import type {
  EvaluationContext,
  Observation,
} from '../../functions/infection-alerter/health/kinds.js';
import { Outbreaks } from '../../functions/infection-alerter/health/outbreak.js';
import { outbreakId } from '../../functions/infection-alerter/health/outbreak-alert.js';
import {
  knownSubjects,
  outbreakSubject,
  SubjectRecord,
  subjectKey,
} from '../../functions/infection-alerter/health/records.js';
import { DEFAULT_RULES } from '../../functions/infection-alerter/health/rules.js';
import {
  alertId,
  HEALTH_KINDS,
  type HealthAlert,
  type HealthKind,
  SITE_KINDS,
} from '../../lib/alerts/index.js';
import {
  type AlertPublisher,
  type DeliveryQueue,
  StateStore,
  type WriteCondition,
} from '../../lib/aws/index.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

/**
 * Outbreaks over moto's S3, run by run as the health pass runs them (record each endpoint's
 * transitions, open the run's outbreaks, drain), with a delivery queue that records what it
 * took and can refuse, or take and then die; and a state store that can fail a write, as a run
 * that dies between two steps.
 */
let aws: LocalAws;
let bucket: string;
beforeAll(async () => {
  aws = await startLocalAws();
  bucket = (await aws.provision()).bucket;
});
afterAll(async () => aws?.moto.stop());

/** A state store whose writes fail where `fail` says (once each, unless it says again). */
class FaultyState extends StateStore {
  fail: (key: string, value: unknown) => boolean = () => false;
  override async put(key: string, value: unknown, condition?: WriteCondition) {
    if (this.fail(key, value)) throw new Error(`the run died writing ${key}`);
    return super.put(key, value, condition);
  }
}

function receiver() {
  const sent: HealthAlert[] = [];
  const r = {
    sent,
    refuse: (_: HealthAlert) => false,
    dieAfter: (_: HealthAlert) => false,
    enqueue: async (alert: HealthAlert) => {
      if (r.refuse(alert)) throw new Error('SQS refused');
      sent.push(alert);
      if (r.dieAfter(alert)) throw new Error('the run died after queueing');
    },
    publishHealth: async () => 'id',
  };
  return r;
}

type Change = [string, string, HealthKind, boolean];
let gsms = 0;
/** A console of its own per test, its state and its receiver. */
function aConsole(threshold = 5) {
  const gsm = `G${++gsms}`;
  const state = new FaultyState(aws.clients.s3, bucket);
  const to = receiver();
  let minute = 0;
  const ctx = (): EvaluationContext => ({
    gsm,
    names: { consoleName: 'Console', siteName: (site) => `Site ${site}` },
    now: Date.UTC(2026, 0, 1, 0, ++minute),
    rule: (_site, kind) => DEFAULT_RULES[kind],
  });
  const observation = (id: string, site: string, kind: HealthKind, active: boolean) => ({
    kind,
    active,
    alert: {
      id: alertId(kind, { machineId: id }),
      kind,
      severity: DEFAULT_RULES[kind].severity,
      gsm,
      consoleName: 'Console',
      site,
      siteName: `Site ${site}`,
      hostName: `HOST-${id}`,
      machineId: id,
      title: `${kind}: HOST-${id}`,
      summary: 's',
      occurredAt: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
      facts: {},
    },
  });
  const c = {
    gsm,
    state,
    to,
    /** A run up to its drain: each change observed, the run's outbreaks opened. */
    prepare: async (changes: Change[] = []) => {
      const o = new Outbreaks(state, ctx(), threshold, await knownSubjects(state, gsm));
      for (const [id, site, kind, active] of changes)
        await o.record(id, site, [observation(id, site, kind, active) as Observation]);
      await o.open();
      return o;
    },
    /** The drain of a run (a run of its own, with nothing observed, if none is given). */
    drain: async (o?: Outbreaks, options: { sweep?: boolean; leaseMs?: number } = {}) => {
      const run = o ?? (await c.prepare());
      const deps = {
        state,
        alerts: to as unknown as AlertPublisher,
        deliveries: to as unknown as DeliveryQueue,
      };
      const { sweep = false, leaseMs = 60_000 } = options;
      return run.drain(deps, { sendLeaseMs: leaseMs, sweep });
    },
    /** One run: each change observed, the run's outbreaks opened, the outbox drained. */
    run: async (changes: Change[] = [], options: { sweep?: boolean; leaseMs?: number } = {}) =>
      c.drain(await c.prepare(changes), options),
    /** What receivers got since the last call, `eventId action`. */
    received: () => to.sent.splice(0).map((a) => `${a.eventId} ${a.action}`),
    record: async (subject: string) =>
      (await state.get(subjectKey(gsm, subject), SubjectRecord))?.value.alerts,
  };
  return c;
}

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const all = (machines: string[], site: string, kind: HealthKind, active: boolean) =>
  machines.map((id): Change => [id, site, kind, active]);
const OUT = (site: string, kind: HealthKind = 'infected') => outbreakId(kind, site);

describe('Class: Outbreaks', () => {
  it('sends each trigger on its own at the threshold, and groups one endpoint more', async () => {
    const at = aConsole(5);
    await at.run(all(ids('a', 5), 'S1', 'infected', true));
    expect(at.received()).toEqual(ids('a', 5).map((id) => `infected/${id}#1 trigger`));

    await at.run(all(ids('b', 6), 'S2', 'infected', true));
    expect(at.received()).toEqual([`${OUT('S2')}#1 trigger`]);
  });

  it('sends one alert for the site naming its endpoints, and records theirs as muted', async () => {
    const at = aConsole(5);
    await at.run(all(ids('m', 6), 'S1', 'infected', true));
    const [alert] = at.to.sent;
    expect(alert).toMatchObject({
      id: 'infected/site/S1/outbreak',
      action: 'trigger',
      kind: 'infected',
      severity: 'critical',
      site: 'S1',
      machineId: null,
      hostName: null,
      title: 'Outbreak: 6 endpoints infected at Site S1',
      facts: {
        endpoints: 6,
        hosts: ids('m', 6)
          .map((id) => `HOST-${id} (${id})`)
          .join(', '),
      },
    });
    // The state stays exact: each endpoint's alert is open, its trigger recorded, not sent.
    for (const id of ids('m', 6))
      expect((await at.record(id))?.infected).toMatchObject({
        open: true,
        seq: 1,
        muted: 'outbreak',
      });
    expect((await at.record(outbreakSubject('S1')))?.infected?.outbreak?.open).toHaveLength(6);
  });

  it('lists 20 endpoints and counts the rest', async () => {
    const at = aConsole(5);
    await at.run(all(ids('m', 25), 'S1', 'offline', true));
    const [alert] = at.to.sent;
    expect(alert?.title).toBe('Outbreak: 25 endpoints not seen at Site S1');
    expect(alert?.facts.endpoints).toBe(25);
    expect(String(alert?.facts.hosts)).toMatch(/^HOST-m0 \(m0\), .*HOST-m19 \(m19\), and 5 more$/);
  });

  it('counts each kind at a site, and each site, apart; a threshold of 1 groups two', async () => {
    const at = aConsole(1);
    await at.run([
      ...all(ids('a', 2), 'S1', 'infected', true),
      ...all(ids('a', 2), 'S1', 'protection-off', true),
      ...all(ids('b', 1), 'S2', 'infected', true),
    ]);
    expect(at.received().sort()).toEqual(
      [
        `${OUT('S1')}#1 trigger`,
        `${OUT('S1', 'protection-off')}#1 trigger`,
        'infected/b0#1 trigger',
      ].sort(),
    );
  });

  it('never groups the site kinds', async () => {
    const at = aConsole(1);
    await at.run(all(ids('site:', 3), 'S1', 'licence-expired', true));
    expect(at.received()).toHaveLength(3);
    for (const kind of SITE_KINDS)
      for (const other of HEALTH_KINDS)
        expect(alertId(kind, { site: 'S1' })).not.toBe(outbreakId(other, 'S1'));
    expect(outbreakId('infected', 'S1')).not.toBe(alertId('infected', { site: 'S1' }));
  });

  it('resolves once, when the last endpoint clears; the resolves before are not sent', async () => {
    const at = aConsole(5);
    const m = ids('m', 6);
    await at.run(all(m, 'S1', 'infected', true));
    at.received();
    await at.run(all(m.slice(0, 5), 'S1', 'infected', false));
    expect(at.received()).toEqual([]);
    await at.run(all(m.slice(5), 'S1', 'infected', false));
    expect(at.received()).toEqual([`${OUT('S1')}#2 resolve`]);
    for (const id of m)
      expect((await at.record(id))?.infected).toEqual(
        expect.objectContaining({ open: false, seq: 2 }),
      );
    await at.run(all(m, 'S1', 'infected', false));
    expect(at.received()).toEqual([]);
  });

  it('lets an endpoint that triggers while it is open join it, unsent, and waits for it too', async () => {
    const at = aConsole(5);
    const m = ids('m', 6);
    await at.run(all(m, 'S1', 'infected', true));
    at.received();
    // A seventh: recorded, not sent; the outbreak now waits for it as well.
    await at.run([['late', 'S1', 'infected', true]]);
    expect(at.received()).toEqual([]);
    expect((await at.record('late'))?.infected?.muted).toBe('outbreak');
    await at.run(all(m, 'S1', 'infected', false));
    expect(at.received()).toEqual([]);
    // Another kind at the site, and the same kind at another, are not part of it.
    await at.run([
      ['p', 'S1', 'protection-off', true],
      ['q', 'S2', 'infected', true],
    ]);
    expect(at.received()).toEqual(['protection-off/p#1 trigger', 'infected/q#1 trigger']);
    await at.run([['late', 'S1', 'infected', false]]);
    const [resolve] = at.to.sent;
    expect(at.received()).toEqual([`${OUT('S1')}#2 resolve`]);
    // It counts and lists, in its next event, the endpoint that joined.
    expect(resolve?.facts).toMatchObject({ endpoints: 7 });
    expect(String(resolve?.facts.hosts)).toContain('HOST-late (late)');
  });

  it('still sends the resolve of an endpoint alerted on its own before the outbreak began', async () => {
    const at = aConsole(5);
    await at.run([['first', 'S1', 'infected', true]]);
    const m = ids('m', 6);
    await at.run(all(m, 'S1', 'infected', true));
    expect(at.received()).toEqual(['infected/first#1 trigger', `${OUT('S1')}#1 trigger`]);
    await at.run([['first', 'S1', 'infected', false]]);
    expect(at.received()).toEqual(['infected/first#2 resolve']);
    await at.run(all(m, 'S1', 'infected', false));
    expect(at.received()).toEqual([`${OUT('S1')}#2 resolve`]);
  });

  it('is not closed by the resolve of an endpoint that is not one of its members', async () => {
    const at = aConsole(5);
    const m = ids('m', 6);
    await at.run(all(m, 'S1', 'infected', true));
    at.received();
    // Muted for an earlier outbreak (left behind by a crash), never one of this one's.
    await at.state.put(subjectKey(at.gsm, 'stray'), {
      alerts: { infected: { open: true, seq: 1, openedAt: null, muted: 'outbreak' } },
    });
    await at.run([['stray', 'S1', 'infected', false]]);
    expect(at.received()).toEqual([]);
    expect((await at.record(outbreakSubject('S1')))?.infected?.open).toBe(true);
    await at.run(all(m, 'S1', 'infected', false));
    expect(at.received()).toEqual([`${OUT('S1')}#2 resolve`]);
  });

  it('opens a new outbreak, with its own seq, after one resolved', async () => {
    const at = aConsole(5);
    const m = ids('m', 6);
    await at.run(all(m, 'S1', 'infected', true));
    await at.run(all(m, 'S1', 'infected', false));
    await at.run(all(m, 'S1', 'infected', true));
    expect(at.received()).toEqual([
      `${OUT('S1')}#1 trigger`,
      `${OUT('S1')}#2 resolve`,
      `${OUT('S1')}#3 trigger`,
    ]);
    expect((await at.record(outbreakSubject('S1')))?.infected?.outbreak?.members).toHaveLength(6);
  });

  it('is left out of the digest, which counts each endpoint', async () => {
    const at = aConsole(5);
    await at.run(all(ids('m', 6), 'S1', 'infected', true));
    const names = { consoleName: 'Console', siteName: () => null };
    const digest = await buildDigest(at.state, at.gsm, names, () => 'S1', Date.now());
    expect(digest.openByKind).toEqual({ infected: 6 });
  });
});

describe('Class: Outbreaks, across failed and dead runs', () => {
  it('sends the endpoints on their own when a run died between marking them and opening it', async () => {
    const at = aConsole(5);
    const m = ids('m', 6);
    at.state.fail = (key) => key.includes('/outbox/outbreak%3A');
    await expect(at.run(all(m, 'S1', 'infected', true))).rejects.toThrow(/died/);
    at.state.fail = () => false;
    await at.run();
    expect(at.received()).toEqual(m.map((id) => `infected/${id}#1 trigger`));
    await at.run(all(m, 'S1', 'infected', false));
    expect(at.received()).toEqual(m.map((id) => `infected/${id}#2 resolve`));
  });

  it('holds the endpoints back while the outbreak is refused, then sends it once', async () => {
    const at = aConsole(5);
    const m = ids('m', 6);
    at.to.refuse = (alert) => alert.id.endsWith('/outbreak');
    await expect(at.run(all(m, 'S1', 'infected', true))).rejects.toThrow(/not sent/);
    expect(at.received()).toEqual([]);
    expect((await at.record('m0'))?.infected).toBeUndefined();
    at.to.refuse = () => false;
    await at.run();
    expect(at.received()).toEqual([`${OUT('S1')}#1 trigger`]);
    await at.run(all(m, 'S1', 'infected', false));
    expect(at.received()).toEqual([`${OUT('S1')}#2 resolve`]);
  });

  it('sends the outbreak again with the same event id when the run died after queueing it', async () => {
    const at = aConsole(5);
    const m = ids('m', 6);
    at.to.dieAfter = (alert) => alert.id.endsWith('/outbreak');
    await expect(at.run(all(m, 'S1', 'infected', true))).rejects.toThrow();
    at.to.dieAfter = () => false;
    await at.run();
    // One event, twice: receivers de-duplicate on its event id. No endpoint went out.
    expect(at.received()).toEqual([`${OUT('S1')}#1 trigger`, `${OUT('S1')}#1 trigger`]);
    await at.run(all(m, 'S1', 'infected', false));
    expect(at.received()).toEqual([`${OUT('S1')}#2 resolve`]);
  });

  it('counts a member once when a run failed after it joined and before its record moved', async () => {
    const at = aConsole(5);
    const m = ids('m', 6);
    at.state.fail = (key) => key === subjectKey(at.gsm, 'm3');
    await expect(at.run(all(m, 'S1', 'infected', true))).rejects.toThrow(/not sent/);
    at.state.fail = () => false;
    // The failed run released its claim on m3; the next run joins it again, counted once.
    await at.run([], { leaseMs: 1 });
    await at.run(all(m, 'S1', 'infected', false));
    const [, resolve] = at.to.sent;
    expect(at.received()).toEqual([`${OUT('S1')}#1 trigger`, `${OUT('S1')}#2 resolve`]);
    expect(resolve?.facts.endpoints).toBe(6);
  });

  it('sends the resolve once when a run died after the last endpoint left, before recording it', async () => {
    const at = aConsole(5);
    const m = ids('m', 6);
    await at.run(all(m, 'S1', 'infected', true));
    at.received();
    at.state.fail = (key, value) =>
      key.includes('/outbox/outbreak%3A') && (value as HealthAlert & { seq: number }).seq === 2;
    await expect(at.run(all(m, 'S1', 'infected', false))).rejects.toThrow(/not sent/);
    expect(at.received()).toEqual([]);
    at.state.fail = () => false;
    await at.run();
    await at.run();
    expect(at.received()).toEqual([`${OUT('S1')}#2 resolve`]);
  });

  it('lets overlapping runs send one outbreak, its endpoints all joined', async () => {
    const at = aConsole(5);
    const m = ids('m', 8);
    const opened = await at.prepare(all(m, 'S1', 'infected', true));
    const results = await Promise.allSettled([at.drain(opened), at.drain(), at.drain()]);
    await at.drain();
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(at.received()).toEqual([`${OUT('S1')}#1 trigger`]);
    expect((await at.record(outbreakSubject('S1')))?.infected?.outbreak?.open).toHaveLength(8);
    for (const id of m) expect((await at.record(id))?.infected?.muted).toBe('outbreak');
  });

  it('sends on its own a trigger that would join an outbreak closing meanwhile, and its resolve', async () => {
    const at = aConsole(5);
    const m = ids('m', 6);
    await at.run(all(m, 'S1', 'infected', true));
    at.received();
    // A run reads the outbreak open and records a late trigger muted; before it drains,
    // another run sees every member clear: the last one out closes the outbreak.
    const o = new Outbreaks(
      at.state,
      {
        gsm: at.gsm,
        names: { consoleName: null, siteName: () => null },
        now: Date.now(),
        rule: (_s, kind) => DEFAULT_RULES[kind],
      },
      5,
      await knownSubjects(at.state, at.gsm),
    );
    await o.record('z-late', 'S1', [
      {
        kind: 'infected',
        active: true,
        alert: {
          id: 'infected/z-late',
          kind: 'infected',
          severity: 'critical',
          gsm: at.gsm,
          consoleName: null,
          site: 'S1',
          siteName: null,
          hostName: null,
          machineId: 'z-late',
          title: 't',
          summary: 's',
          occurredAt: new Date().toISOString(),
          facts: {},
        },
      },
    ]);
    await at.run(all(m, 'S1', 'infected', false));
    expect(at.received()).toEqual(['infected/z-late#1 trigger', `${OUT('S1')}#2 resolve`]);
    await at.run([['z-late', 'S1', 'infected', false]]);
    expect(at.received()).toEqual(['infected/z-late#2 resolve']);
  });

  it('closes, with the full check, an outbreak left with no member', async () => {
    const at = aConsole(5);
    await at.run(all(ids('m', 6), 'S1', 'infected', true));
    at.received();
    // As when overlapping runs sent every member on its own: open, and no one in it.
    await at.state.update(subjectKey(at.gsm, outbreakSubject('S1')), SubjectRecord, (r) => ({
      alerts: {
        infected: {
          ...r?.alerts.infected,
          changedAt: '2020-01-01T00:00:00Z',
          outbreak: { members: [], open: [] },
        },
      },
    }));
    await at.run();
    expect(at.received()).toEqual([]);
    await at.run([], { sweep: true });
    expect(at.received()).toEqual([`${OUT('S1')}#2 resolve`]);
  });
});
