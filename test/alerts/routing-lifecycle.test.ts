import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Observation } from '../../functions/infection-alerter/health/kinds.js';
import {
  drainOutbox,
  recordTransitions,
} from '../../functions/infection-alerter/health/lifecycle.js';
import { SubjectRecord, subjectKey } from '../../functions/infection-alerter/health/records.js';
import type { HealthAlert, Routing } from '../../lib/alerts/index.js';
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
 * A delivery queue whose routing an operator edits (`routeTo`), that can refuse, and that
 * records where each event went.
 */
function queue() {
  const q = {
    routeTo: ['acme-slack'],
    refuse: false,
    sent: [] as string[],
    route: async (): Promise<Routing> => ({
      route: q.routeTo.join('+'),
      destinations: [...q.routeTo],
      fields: {},
    }),
    enqueue: async (alert: HealthAlert, routing?: Routing) => {
      if (q.refuse) throw new Error('SQS refused');
      const used = routing ?? (await q.route());
      q.sent.push(
        `${alert.eventId} ${alert.action} → ${used.destinations.join(', ') || 'nowhere'}`,
      );
      return used;
    },
    publishHealth: async () => 'id',
  };
  return q;
}
const deps = (q: ReturnType<typeof queue>) => ({
  state,
  alerts: q as unknown as AlertPublisher,
  deliveries: q as unknown as DeliveryQueue,
});

function observation(machineId: string, active: boolean): Observation {
  return {
    kind: 'infected',
    active,
    alert: {
      id: `infected/${machineId}`,
      kind: 'infected',
      severity: 'critical',
      gsm: 'G',
      consoleName: 'Console',
      site: 'S',
      siteName: 'Site',
      hostName: 'HOST',
      machineId,
      title: 't',
      summary: 's',
      occurredAt: new Date().toISOString(),
      facts: {},
    },
  };
}

/** One run: writes the transitions it sees (routing triggers as it does), then drains. */
async function pass(q: ReturnType<typeof queue>, machineId: string, active: boolean) {
  await recordTransitions(state, 'G', machineId, [observation(machineId, active)], Date.now(), {
    route: q.route,
  });
  return drainOutbox(deps(q), 'G');
}

describe('Health alert lifecycle: routing', () => {
  it('sends the resolve where the trigger went after the routing changed', async () => {
    const q = queue();
    await pass(q, 'm1', true);
    q.routeTo = ['pagerduty'];
    await pass(q, 'm1', false);
    expect(q.sent).toEqual([
      'infected/m1#1 trigger → acme-slack',
      'infected/m1#2 resolve → acme-slack',
    ]);
    // The next incarnation follows the routing of its day.
    await pass(q, 'm1', true);
    expect(q.sent.at(-1)).toBe('infected/m1#3 trigger → pagerduty');
  });

  it('retries a refused trigger where it was first routed, whatever the routing says by then', async () => {
    const q = queue();
    q.refuse = true;
    await expect(pass(q, 'm2', true)).rejects.toThrow(/not sent/);
    q.refuse = false;
    q.routeTo = ['pagerduty'];
    await drainOutbox(deps(q), 'G');
    await pass(q, 'm2', false);
    expect(q.sent).toEqual([
      'infected/m2#1 trigger → acme-slack',
      'infected/m2#2 resolve → acme-slack',
    ]);
  });

  it('keeps a trigger sent nowhere nowhere, resolve included', async () => {
    const q = queue();
    q.routeTo = [];
    await pass(q, 'm3', true);
    q.routeTo = ['slack'];
    await pass(q, 'm3', false);
    expect(q.sent).toEqual(['infected/m3#1 trigger → nowhere', 'infected/m3#2 resolve → nowhere']);
  });

  it('routes when sending a trigger written without routing, and records where it went', async () => {
    const q = queue();
    // An entry from an alerter before routing (or a muted one sent after all): no routing in it.
    await recordTransitions(state, 'G', 'm4', [observation('m4', true)], Date.now());
    q.routeTo = ['teams'];
    await drainOutbox(deps(q), 'G');
    const record = await state.get(subjectKey('G', 'm4'), SubjectRecord);
    expect(record?.value.alerts.infected?.routing).toEqual({
      route: 'teams',
      destinations: ['teams'],
      fields: {},
    });
    q.routeTo = ['psa'];
    await pass(q, 'm4', false);
    expect(q.sent).toEqual(['infected/m4#1 trigger → teams', 'infected/m4#2 resolve → teams']);
  });
});
