import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { StateStore } from '../../lib/aws/index.js';
import { lambdaContext } from '../../scripts/local/lambda-context.js';
import { type Product, startProduct } from '../support/product.js';

/**
 * The infection alerter on a console too big for one invocation: its walks (the changes walk
 * and the health pass's full check) stop at a page boundary when the deadline nears and go on
 * in the next run. Each scenario starts from empty alerter state, so a walk is a first pass over
 * the whole console (15 pages of 10) followed by a full check (15 more). The functions' clock is
 * pinned while they run, so the cursor (which steps back by the walk's duration) and the health
 * evaluations of a cut walk can be compared with an uncut one's.
 */
let product: Product;
let state: StateStore;
let pinnedAt: number;

const RESERVE_MS = 30_000;
const walkKey = () => `infection-alerter/${product.gsm}/walk.json`;
const fullCheckWalkKey = () => `health/${encodeURIComponent(product.gsm)}/full-check-walk.json`;
const Saved = z.looseObject({ continuation: z.nullable(z.string()) });

type Outcome = { walk: { paused: boolean; resumed: boolean; restarted: boolean } };
type RunResult = { outcomes: Outcome[] };

const statusPagesServed = () => product.emulator.stats().byOperation['status.gsm'] ?? 0;

/**
 * A Lambda context whose remaining time falls below the reserve once `pages` status pages were
 * served in this run (prefetch included), so the walk stops at the page boundary after that.
 */
function cutAfter(pages: number): Context {
  const base = statusPagesServed();
  return {
    ...lambdaContext('infection-alerter'),
    getRemainingTimeInMillis: () =>
      statusPagesServed() - base >= pages ? RESERVE_MS - 1 : 10 * RESERVE_MS,
  };
}

/** One run of the alerter with the functions' clock pinned. */
async function tick(context: Context): Promise<RunResult> {
  const spy = vi.spyOn(Date, 'now').mockReturnValue(pinnedAt);
  try {
    return await product.run<RunResult>('infection-alerter', {}, context);
  } finally {
    spy.mockRestore();
  }
}

/** A small deterministic generator (mulberry32), so a failing cut can be replayed. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function resetAlerterState() {
  for (const prefix of ['state/infection-alerter/', 'state/health/']) {
    for (const { key } of await product.objects(prefix))
      await product.aws.clients.s3.send(
        new DeleteObjectCommand({ Bucket: product.res.bucket, Key: key }),
      );
  }
  await product.healthAlerts();
  await product.digests();
}

const walksUnderWay = async () =>
  (await state.get(walkKey(), Saved)) !== undefined ||
  (await state.get(fullCheckWalkKey(), Saved)) !== undefined;

/** The full check is done once its marker is written (a due check starts in the next run). */
const fullCheckDone = async () =>
  (await state.get(`health/${encodeURIComponent(product.gsm)}/full-check.json`, z.looseObject({})))
    ?.value !== undefined;

/** What a whole walk (however many runs it took) sent, and where it left the cursor. */
async function outcome(runs: RunResult[]) {
  const events = await product.healthAlerts();
  const infections = events
    .filter((a) => a.kind === 'infected' && a.action === 'trigger')
    .map((a) => a.machineId ?? '')
    .sort();
  const health = events.map((a) => `${a.action} ${a.id}`).sort();
  // No alert but health events: the v1 infection alerts are retired.
  const v1 = await product.alerts();
  const digests = (await product.digests()).map((d) => ({
    open: d.open,
    openByKind: d.openByKind,
    openBySite: d.openBySite,
  }));
  const cursor = (
    await state.get(
      `infection-alerter/${product.gsm}/cursor.json`,
      z.object({ modifiedSince: z.string() }),
    )
  )?.value.modifiedSince;
  const walks = runs.flatMap((r) => r.outcomes.map((o) => o.walk));
  return { infections, health, digests, cursor, walks, v1 };
}

/** Runs the alerter, each run cut after a number of pages `cut` picks, until no walk is left. */
async function walkAcrossRuns(cut: () => number): Promise<RunResult[]> {
  const runs: RunResult[] = [];
  do {
    runs.push(await tick(cutAfter(cut())));
    if (runs.length > 40) throw new Error('the walk never completed');
  } while ((await walksUnderWay()) || !(await fullCheckDone()));
  return runs;
}

let uncut: Awaited<ReturnType<typeof outcome>>;

beforeAll(async () => {
  product = await startProduct(
    {},
    {
      INFECTION_PAGE_SIZE: '10',
      WALK_RESERVE_SECONDS: String(RESERVE_MS / 1000),
    },
  );
  state = new StateStore(product.aws.clients.s3, product.res.bucket);
  await product.run('token-refresher');
  pinnedAt = Date.now();
  const sites = product.emulator.info().gsms[0]?.sites ?? [];
  for (const site of sites)
    for (const id of product.emulator.machineIds(site.key, 12).slice(3, 7))
      product.emulator.endpointAction(id, 'infect', 'Trojan|Win32|Resume');
  await resetAlerterState();
  const run = await tick(lambdaContext('infection-alerter'));
  expect(await walksUnderWay()).toBe(false);
  uncut = await outcome([run]);
}, 120_000);
afterAll(async () => product?.close());

// Each scenario walks a large console over several runs: about 10 s alone, twice that on a
// loaded 2-core machine, past the suites' 20 s default.
describe('Function: infection-alerter, walks across runs', { timeout: 90_000 }, () => {
  it('the uncut reference run alerts infections, health events and one digest', () => {
    expect(uncut.infections.length).toBeGreaterThan(0);
    expect(new Set(uncut.infections).size).toBe(uncut.infections.length);
    expect(uncut.health.length).toBeGreaterThan(uncut.infections.length);
    expect(uncut.v1).toEqual([]);
    expect(uncut.digests).toHaveLength(1);
    expect(uncut.cursor).toBeDefined();
    expect(uncut.walks).toEqual([expect.objectContaining({ paused: false, resumed: false })]);
  });

  it.each([11, 23, 37])(
    'a walk cut at random pages (seed %i) alerts exactly what an uncut one does, and leaves the same cursor',
    async (seed) => {
      await resetAlerterState();
      const random = seeded(seed);
      const runs = await walkAcrossRuns(() => 1 + Math.floor(random() * 6));
      const cut = await outcome(runs);
      // The walks did span runs: some paused, and later runs went on with them.
      expect(runs.length).toBeGreaterThan(2);
      expect(cut.walks.some((w) => w.paused)).toBe(true);
      expect(cut.walks.some((w) => w.resumed)).toBe(true);
      expect(cut.infections).toEqual(uncut.infections);
      expect(cut.cursor).toEqual(uncut.cursor);
      expect(cut.health).toEqual(uncut.health);
      expect(cut.digests).toEqual(uncut.digests);
    },
  );

  it('restarts a walk at its since when the saved continuation has expired, and alerts every infection', async () => {
    await resetAlerterState();
    const first = await tick(cutAfter(2));
    expect(first.outcomes[0]?.walk.paused).toBe(true);
    const saved = await state.get(walkKey(), Saved);
    expect(saved?.value.continuation).toEqual(expect.any(String));

    // A day later the service no longer accepts the token; the access token is renewed.
    product.emulator.advanceClock(25 * 3600);
    await product.run('token-refresher');
    const second = await tick(lambdaContext('infection-alerter'));
    expect(second.outcomes[0]?.walk).toMatchObject({
      resumed: true,
      restarted: true,
      paused: false,
    });
    expect(await walksUnderWay()).toBe(false);
    const after = await outcome([first, second]);
    expect(after.infections).toEqual(uncut.infections);
    expect(after.cursor).toEqual(uncut.cursor);
  });

  it('alerts, once, endpoints that turn while a walk is paused, on pages it passed or not', async () => {
    await resetAlerterState();
    const first = await tick(cutAfter(3));
    expect(first.outcomes[0]?.walk.paused).toBe(true);
    // One endpoint in each site, so some sit on pages the walk has passed and some ahead.
    const sites = product.emulator.info().gsms[0]?.sites ?? [];
    const turned = sites.flatMap((s) => product.emulator.machineIds(s.key, 12).slice(9, 10));
    for (const id of turned) product.emulator.endpointAction(id, 'infect', 'Worm|Win32|Late');
    const rest = await walkAcrossRuns(() => 3);
    // The walk saw the changes behind it only through the cursor: the next walk reads them.
    const next = await tick(lambdaContext('infection-alerter'));
    const all = await outcome([first, ...rest, next]);
    expect(all.infections).toEqual([...uncut.infections, ...turned].sort());
  });
});
