import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { StateStore } from '../../lib/aws/index.js';
import { type AwsGate, SNS_PUBLISH, startAwsGate } from '../support/aws-gate.js';
import { type Product, startProduct } from '../support/product.js';

/**
 * The infection alerter when runs fail, die or overlap: every infection alerted exactly once,
 * as one `infected` trigger. SNS Publish goes through a gate that can refuse it or hold it
 * forever (a run frozen between writing its transitions and sending them); pages of two
 * entries make a walk span several status requests.
 */
let product: Product;
let gate: AwsGate;
let state: StateStore;
let pool: string[];

const run = () =>
  product.run<{ outcomes: { modifiedSince: string | null }[] }>('infection-alerter');

/** Time passes on the service; the refresher keeps the access token valid meanwhile. */
async function later(seconds: number) {
  product.emulator.advanceClock(seconds);
  await product.run('token-refresher');
}

function infect(count: number): string[] {
  const ids = pool.splice(0, count);
  for (const id of ids) product.emulator.endpointAction(id, 'infect', `Trojan|Win32|${id.length}`);
  return ids;
}

/** Machine IDs of the health events received since the last call, one per event. */
async function alerted(): Promise<string[]> {
  const events = await product.healthAlerts();
  // Nothing but infected triggers: an infected agent also asks for attention, silently.
  expect(events.filter((a) => a.kind !== 'infected' || a.action !== 'trigger')).toEqual([]);
  return events.map((a) => a.machineId ?? '').sort();
}

/** Transitions written and not yet sent (not the claims on sending them beside them). */
const outbox = async () =>
  (await product.objects(`state/health/${product.gsm}/outbox/`))
    .map((o) => o.key)
    .filter((key) => !key.endsWith('.sending'));
const cursor = async () =>
  (
    await state.get(
      `infection-alerter/${product.gsm}/cursor.json`,
      z.object({ modifiedSince: z.string() }),
    )
  )?.value.modifiedSince ?? '';

const sorted = (xs: string[]) => [...xs].sort();
const SEND_LEASE_S = 3;

beforeAll(async () => {
  product = await startProduct(
    {},
    {
      INFECTION_PAGE_SIZE: '2',
      // A failing page fails the walk quickly.
      SKYWATCH_MAX_ATTEMPTS: '2',
      // Eight infections of one site would be one outbreak (test/integration/outbreak.test.ts):
      // here each must be its own alert, whichever overlapping run sends it.
      ALERT_OUTBREAK_THRESHOLD: '1000',
      // A frozen run's claim on sending lapses in seconds, not past the 2-minute timeout.
      ALERT_SEND_LEASE_SECONDS: String(SEND_LEASE_S),
      SKYWATCH_MAX_RETRY_WAIT_MS: '100',
    },
  );
  gate = await startAwsGate(product.aws.moto.endpoint, SNS_PUBLISH);
  // Before any handler is loaded: they read their endpoint once, when first imported.
  process.env.AWS_ENDPOINT_URL = gate.endpoint;
  state = new StateStore(product.aws.clients.s3, product.res.bucket);
  // The daily full check is not what these tests are about: marked done, so the first run
  // does not walk the whole console a second time at two entries a page.
  await state.put(`health/${product.gsm}/full-check.json`, { at: new Date().toISOString() });
  await product.run('token-refresher');
  await run();
  // What the data starts with is alerted by the first run; the tests turn other endpoints.
  const busy = new Set((await product.healthAlerts()).map((a) => a.machineId));
  const sites = product.emulator.info().gsms[0]?.sites ?? [];
  pool = sites.flatMap((s) => product.emulator.machineIds(s.key, 30)).filter((id) => !busy.has(id));
  // One change after the dataset's own history, so later walks only return changed endpoints.
  await later(3600);
  infect(1);
  await run();
  await product.healthAlerts();
});
afterAll(async () => {
  await gate?.close();
  await product?.close();
});

describe('Function: infection-alerter, across failures and overlapping runs', () => {
  it('alerts exactly once the infections a failed walk had seen, and the rest next run', async () => {
    await later(600);
    const ids = infect(6);
    // The first two pages are served, every later status request fails.
    product.emulator.setFaults([
      { operation: 'status.gsm', kind: 'status', status: 500, afterRequests: 2 },
    ]);
    await expect(run()).rejects.toThrow();
    product.emulator.setFaults([]);
    // What the pages read whole showed went out before the run failed.
    const first = await alerted();
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(ids.length);
    expect(ids).toEqual(expect.arrayContaining(first));
    expect(await outbox()).toEqual([]);

    await run();
    const second = await alerted();
    expect(sorted([...first, ...second])).toEqual(sorted(ids));
  });

  it('sends at once, and once, what SNS refused, even when the next walk fails and the cursor moved on', async () => {
    await later(600);
    const ids = infect(2);
    const before = await cursor();
    gate.mode('fail');
    await expect(run()).rejects.toThrow(/not sent/);
    gate.mode('pass');
    expect(await alerted()).toEqual([]);
    expect(await outbox()).toHaveLength(2);
    // The walk was complete: the cursor moved past the changes; the outbox holds them.
    expect((await cursor()) > before).toBe(true);

    product.emulator.setFaults([{ operation: 'status.gsm', kind: 'status', status: 500 }]);
    await expect(run()).rejects.toThrow();
    product.emulator.setFaults([]);
    expect(await alerted()).toEqual(sorted(ids));
    expect(await outbox()).toEqual([]);
    await run();
    expect(await alerted()).toEqual([]);
  });

  it('lets the next run send what a run frozen mid-publish wrote, and the frozen one neither sends nor undoes it', async () => {
    await later(600);
    const ids = infect(2);
    const before = await cursor();
    gate.mode('hold');
    const frozen = run();
    frozen.catch(() => undefined);
    await gate.held();
    gate.mode('pass');

    // The frozen run's claim holds the next run off until its lease runs out.
    await run();
    await new Promise((resolve) => setTimeout(resolve, SEND_LEASE_S * 1000 + 200));
    await run();
    expect(await alerted()).toEqual(sorted(ids));
    expect(await outbox()).toEqual([]);
    expect((await cursor()) > before).toBe(true);

    // The frozen run wakes to a failed publish.
    gate.failHeld();
    await expect(frozen).rejects.toThrow();
    await run();
    expect(await alerted()).toEqual([]);
    expect(await outbox()).toEqual([]);
  });

  it('alerts each infection exactly once when several runs walk the same pages at once', async () => {
    await later(600);
    const ids = infect(8);
    await Promise.all([run(), run(), run()]);
    await run();
    expect(await alerted()).toEqual(sorted(ids));
    expect(await outbox()).toEqual([]);
  });
});
