import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { StateStore } from '../../lib/aws/index.js';
import { type AwsGate, SNS_PUBLISH, startAwsGate } from '../support/aws-gate.js';
import { type Product, startProduct } from '../support/product.js';

/**
 * The infection alerter when runs fail, die or overlap: every infection alerted exactly once.
 * SNS Publish goes through a gate that can refuse it or hold it forever (a run frozen between
 * its claims and its alerts); pages of two entries make a walk span several status requests.
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

/** Machine IDs named by the infection alerts received since the last call, one per alert. */
async function alerted(): Promise<string[]> {
  const alerts = await product.alerts();
  return alerts
    .filter((a) => a.kind === 'infection')
    .map((a) => (a.details as { machineId: string }).machineId)
    .sort();
}

const claimsPrefix = () => `state/infection-alerter/${product.gsm}/claims/`;
const claims = async () => (await product.objects(claimsPrefix())).map((o) => o.key);
const cursor = async () =>
  (
    await state.get(
      `infection-alerter/${product.gsm}/cursor.json`,
      z.object({ modifiedSince: z.string() }),
    )
  )?.value.modifiedSince;

/** Moves every pending claim past its lease, as the clock would after the lease's length. */
async function outliveLeases() {
  const Claim = z.looseObject({ leaseUntil: z.string() });
  for (const key of await claims()) {
    const relative = key.slice('state/'.length);
    const found = await state.get(relative, Claim);
    if (found) await state.put(relative, { ...found.value, leaseUntil: new Date(0).toISOString() });
  }
}

const sorted = (xs: string[]) => [...xs].sort();

beforeAll(async () => {
  product = await startProduct(
    {},
    {
      INFECTION_PAGE_SIZE: '2',
      INFECTION_SUMMARY_THRESHOLD: '50',
      // The gate counts infection publishes; health alerts have their own recovery tests.
      HEALTH_ALERTS: 'false',
      // A failing page fails the walk quickly.
      SKYWATCH_MAX_ATTEMPTS: '2',
      SKYWATCH_MAX_RETRY_WAIT_MS: '100',
    },
  );
  gate = await startAwsGate(product.aws.moto.endpoint, SNS_PUBLISH);
  // Before any handler is loaded: they read their endpoint once, when first imported.
  process.env.AWS_ENDPOINT_URL = gate.endpoint;
  state = new StateStore(product.aws.clients.s3, product.res.bucket);
  const sites = product.emulator.info().gsms[0]?.sites ?? [];
  pool = sites.flatMap((s) => product.emulator.machineIds(s.key, 30));
  await product.run('token-refresher');
  await run();
  // One change after the dataset's own history, so later walks only return changed endpoints.
  await later(3600);
  infect(1);
  await run();
  await product.alerts();
});
afterAll(async () => {
  await gate?.close();
  await product?.close();
});

describe('Function: infection-alerter, across failures and overlapping runs', () => {
  it('alerts exactly once the infections a failed walk had claimed, and the rest next run', async () => {
    await later(600);
    const ids = infect(6);
    // The first two pages are served, every later status request fails.
    product.emulator.setFaults([
      { operation: 'status.gsm', kind: 'status', status: 500, afterRequests: 2 },
    ]);
    await expect(run()).rejects.toThrow();
    product.emulator.setFaults([]);
    const first = await alerted();
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(ids.length);
    expect(ids).toEqual(expect.arrayContaining(first));
    expect(await claims()).toEqual([]);

    await run();
    const second = await alerted();
    expect(sorted([...first, ...second])).toEqual(sorted(ids));
  });

  it('re-sends at once, and once, the claims of a run whose alerts SNS refused', async () => {
    await later(600);
    const ids = infect(2);
    gate.mode('fail');
    await expect(run()).rejects.toThrow(/publish/i);
    gate.mode('pass');
    expect(await alerted()).toEqual([]);
    expect(await claims()).toHaveLength(2);

    await run();
    expect(await alerted()).toEqual(sorted(ids));
    expect(await claims()).toEqual([]);
    await run();
    expect(await alerted()).toEqual([]);
  });

  it('recovers the claims of a run frozen before its alerts, only after their lease', async () => {
    await later(600);
    const ids = infect(2);
    gate.mode('hold');
    const frozen = run();
    frozen.catch(() => undefined);
    await gate.held();
    gate.mode('pass');

    // Within the lease the claims are the frozen run's: nobody else sends them.
    await run();
    expect(await alerted()).toEqual([]);
    expect(await claims()).toHaveLength(2);

    await outliveLeases();
    await run();
    expect(await alerted()).toEqual(sorted(ids));
    expect(await claims()).toEqual([]);

    // The frozen run wakes to a failed publish: it neither sends nor undoes anything.
    gate.failHeld();
    await expect(frozen).rejects.toThrow();
    await run();
    expect(await alerted()).toEqual([]);
    expect(await claims()).toEqual([]);
  });

  it('alerts once when a run that skipped an endpoint claimed by another moved the cursor and the claimer failed', async () => {
    await later(600);
    const ids = infect(2);
    const before = await cursor();
    gate.mode('hold');
    const claimer = run();
    claimer.catch(() => undefined);
    await gate.held();
    gate.mode('pass');

    await run();
    const after = await cursor();
    expect(before !== undefined && after !== undefined && after > before).toBe(true);
    expect(await alerted()).toEqual([]);

    gate.failHeld();
    await expect(claimer).rejects.toThrow();
    await run();
    expect(await alerted()).toEqual(sorted(ids));
    await run();
    expect(await alerted()).toEqual([]);
  });

  it('alerts each infection exactly once when several runs walk the same pages at once', async () => {
    await later(600);
    const ids = infect(8);
    await Promise.all([run(), run(), run()]);
    await run();
    expect(await alerted()).toEqual(sorted(ids));
    expect(await claims()).toEqual([]);
  });
});
