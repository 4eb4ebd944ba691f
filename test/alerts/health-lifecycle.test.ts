import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Observation } from '../../functions/infection-alerter/health/kinds.js';
import {
  drainOutbox,
  recordTransitions,
} from '../../functions/infection-alerter/health/lifecycle.js';
import type { HealthAlert } from '../../lib/alerts/index.js';
import { type AlertPublisher, type DeliveryQueue, StateStore } from '../../lib/aws/index.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

let aws: LocalAws;
let state: StateStore;
beforeAll(async () => {
  aws = await startLocalAws();
  state = new StateStore(aws.clients.s3, (await aws.provision()).bucket);
});
afterAll(async () => aws?.moto.stop());

/**
 * A delivery queue that records what SQS accepted (`refuse`: refuses; `accept-then-die`:
 * accepts, then the run dies), beside a topic that takes everything.
 */
function publisher() {
  const sent: HealthAlert[] = [];
  const p = {
    sent,
    mode: 'ok' as 'ok' | 'refuse' | 'accept-then-die',
    enqueue: async (alert: HealthAlert) => {
      if (p.mode === 'refuse') throw new Error('SQS refused');
      sent.push(alert);
      if (p.mode === 'accept-then-die') throw new Error('process died after queueing');
    },
    publishHealth: async () => 'id',
  };
  return p;
}
const deps = (p: ReturnType<typeof publisher>) => ({
  state,
  alerts: p as unknown as AlertPublisher,
  deliveries: p as unknown as DeliveryQueue,
});

let n = 0;
function observation(machineId: string, active: boolean): Observation {
  n++;
  return {
    kind: 'protection-off',
    active,
    alert: {
      id: `protection-off/${machineId}`,
      kind: 'protection-off',
      severity: 'high',
      gsm: 'G',
      consoleName: 'Console',
      site: 'S',
      siteName: 'Site',
      hostName: 'HOST',
      machineId,
      title: 't',
      summary: 's',
      occurredAt: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
      facts: {},
    },
  };
}
const actions = (sent: HealthAlert[]) => sent.map((a) => `${a.eventId}:${a.action}`);

describe('Health alert lifecycle', () => {
  it('triggers once while the condition holds and resolves once when it clears', async () => {
    const p = publisher();
    for (let i = 0; i < 3; i++) {
      await recordTransitions(state, 'G', 'm1', [observation('m1', true)], Date.now());
      await drainOutbox(deps(p), 'G');
    }
    for (let i = 0; i < 2; i++) {
      await recordTransitions(state, 'G', 'm1', [observation('m1', false)], Date.now());
      await drainOutbox(deps(p), 'G');
    }
    expect(actions(p.sent)).toEqual(['protection-off/m1#1:trigger', 'protection-off/m1#2:resolve']);
    expect(p.sent[1]?.openedAt).toBe(p.sent[0]?.openedAt);
  });

  it('keeps a refused event for the next run, which sends it', async () => {
    const p = publisher();
    await recordTransitions(state, 'G', 'm2', [observation('m2', true)], Date.now());
    p.mode = 'refuse';
    await expect(drainOutbox(deps(p), 'G')).rejects.toThrow(/not sent/);
    // The condition is seen again while the event is pending: no second transition.
    expect(await recordTransitions(state, 'G', 'm2', [observation('m2', true)], Date.now())).toBe(
      0,
    );
    p.mode = 'ok';
    await drainOutbox(deps(p), 'G');
    await drainOutbox(deps(p), 'G');
    expect(actions(p.sent)).toEqual(['protection-off/m2#1:trigger']);
  });

  it('sends again with the same event id after a run died between publishing and recording', async () => {
    const p = publisher();
    await recordTransitions(state, 'G', 'm3', [observation('m3', true)], Date.now());
    p.mode = 'accept-then-die';
    await expect(drainOutbox(deps(p), 'G')).rejects.toThrow();
    p.mode = 'ok';
    await drainOutbox(deps(p), 'G');
    await recordTransitions(state, 'G', 'm3', [observation('m3', true)], Date.now());
    await drainOutbox(deps(p), 'G');
    // Two deliveries to SNS, one event: receivers de-duplicate on the event id.
    expect(actions(p.sent)).toEqual(['protection-off/m3#1:trigger', 'protection-off/m3#1:trigger']);
  });

  it('lets one of overlapping runs own a transition and drops a late observer’s copy', async () => {
    const p = publisher();
    const created = await Promise.all(
      Array.from({ length: 5 }, () =>
        recordTransitions(state, 'G', 'm4', [observation('m4', true)], Date.now()),
      ),
    );
    expect(created.reduce((a, b) => a + b, 0)).toBe(1);
    await Promise.all([drainOutbox(deps(p), 'G'), drainOutbox(deps(p), 'G')]);
    expect(new Set(p.sent.map((a) => a.eventId))).toEqual(new Set(['protection-off/m4#1']));
    // A run that read the record before it moved writes the same transition late: unsent.
    const late = publisher();
    await state.put('health/G/outbox/m4/protection-off/0000000001.json', {
      subject: 'm4',
      seq: 1,
      createdAt: new Date().toISOString(),
      alert: { ...p.sent[0], occurredAt: 'late' },
    });
    const drained = await drainOutbox(deps(late), 'G');
    expect({ sent: late.sent.length, stale: drained.stale }).toEqual({ sent: 0, stale: 1 });
  });
});
