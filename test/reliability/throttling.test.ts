import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FunctionName } from '../../scripts/local/functions.js';
import { offlineOffForPastClock, type Product, startProduct } from '../support/product.js';
import { archiveDiff, archiveHashes } from './support/archive.js';
import { captureOutput } from './support/capture.js';
import { virtualContext } from './support/virtual-time.js';

// Back-offs and each Retry-After are the client's own decisions; they are honoured on a virtual
// clock instead of waited out (support/virtual-time.ts). One instance serves the mock and this
// file, whatever vi.resetModules does later.
const virtualTime = await vi.hoisted(() => import('./support/virtual-time.js'));
vi.mock('../../lib/http/clock.js', () => virtualTime);

/**
 * A throttled service: every call answers 429 (Retry-After: 1) for a while, then recovers.
 * Each case archives into its own bucket and compares with a run that met no throttling.
 */
const DAY_MS = 86_400_000;
const throttle = (count: number, operation?: 'status.gsm') => [
  {
    kind: 'status' as const,
    status: 429 as const,
    count,
    retryAfterSeconds: 1,
    ...(operation ? { operation } : {}),
  },
];
/**
 * The alerter's walk of the console's status pages throttled. Its other calls (the usage
 * reports that name consoles and sites in alerts) may fail without failing the run, so they
 * would only absorb refusals meant for the walk.
 */
const throttleWalk = (count: number) => throttle(count, 'status.gsm');

let product: Product;
let baseline: Map<string, string>;
let reportDay: string;
const defaults: Record<string, string | undefined> = {};

/** Fresh bucket and environment, and fresh modules so the handlers read them (a cold start). */
async function configure(bucket: string, env: Record<string, string> = {}): Promise<void> {
  await product.aws.clients.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  for (const [k, v] of Object.entries(defaults)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  Object.assign(process.env, { REPORT_BUCKET: bucket }, env);
  vi.resetModules();
}

/** One invocation: its outcome, the client's retries (from its warnings) and any error. */
async function invoke(name: FunctionName, event: unknown = {}) {
  const output: string[] = [];
  try {
    const value = await captureOutput(() => product.run(name, event, virtualContext(name)), output);
    return { ok: true as const, value, retries: retries(output) };
  } catch (error) {
    return { ok: false as const, error: error as Error, retries: retries(output) };
  }
}

function retries(output: string[]): number[] {
  return output
    .join('')
    .split('\n')
    .filter((l) => l.includes('retrying a service call'))
    .map((l) => (JSON.parse(l) as { retry: { delayMs: number } }).retry.delayMs);
}

/** Lambda's asynchronous invocation: the first attempt and up to two retries. */
async function withLambdaRetries(name: FunctionName) {
  const attempts = [];
  for (let n = 0; n < 3; n++) {
    const outcome = await invoke(name);
    attempts.push(outcome);
    if (outcome.ok) break;
  }
  return attempts;
}

const reports = (archive: Map<string, string>, day: string) =>
  new Map(
    [...archive].filter(
      ([k]) =>
        !k.startsWith('reports/agent-status/') &&
        !k.startsWith('reports/dnsp-status/') &&
        k.includes(`/date=${day}/`),
    ),
  );

async function infect(n: number, offset: number): Promise<string[]> {
  const site = product.emulator.info().gsms[0]?.sites[offset % 5];
  const ids = product.emulator.machineIds(site?.key ?? '', 10).slice(0, n);
  for (const id of ids) product.emulator.endpointAction(id, 'infect');
  return ids;
}

async function alertedIds(): Promise<string[]> {
  return (await product.healthAlerts())
    .filter((a) => a.kind === 'infected' && a.action === 'trigger')
    .map((a) => a.machineId ?? '')
    .sort();
}

beforeAll(async () => {
  product = await startProduct({ now: '2026-03-01T06:00:00Z' }, { POWERTOOLS_LOG_LEVEL: 'WARN' });
  for (const k of ['SKYWATCH_MAX_ATTEMPTS', 'SKYWATCH_MAX_RETRY_WAIT_MS'])
    defaults[k] = process.env[k];
  await product.run('token-refresher');
  await configure(`${product.res.bucket}-baseline`);
  const out = (await product.run('report-fetcher')) as { days: { date: string }[] };
  reportDay = out.days[0]?.date ?? '';
  baseline = await archiveHashes(product, 'reports/', `${product.res.bucket}-baseline`);
}, 60_000);
afterAll(async () => product?.close());

describe('Throttled service (every call 429 for a while): report-fetcher daily run', () => {
  it('rides out the throttle within one run when the retry budget allows it', async () => {
    const bucket = `${product.res.bucket}-budget`;
    await configure(bucket, { SKYWATCH_MAX_ATTEMPTS: '10', SKYWATCH_MAX_RETRY_WAIT_MS: '30000' });
    product.emulator.setFaults(throttle(6));
    const run = await invoke('report-fetcher');
    product.emulator.setFaults([]);
    expect(run.ok).toBe(true);
    // Each throttled answer was waited out for its Retry-After, not hammered.
    expect(run.retries).toEqual(Array(6).fill(1000));
    expect(archiveDiff(baseline, await archiveHashes(product, 'reports/', bucket))).toEqual([]);
  });

  it('finishes the day on a Lambda retry when a run runs out of budget', async () => {
    const bucket = `${product.res.bucket}-lambda-retry`;
    await configure(bucket);
    product.emulator.setFaults(throttle(6));
    const attempts = await withLambdaRetries('report-fetcher');
    product.emulator.setFaults([]);
    expect(attempts.map((a) => a.ok)).toEqual([false, true]);
    expect(attempts[0]?.ok === false && attempts[0].error.message).toMatch(/HTTP 429/);
    expect(archiveDiff(baseline, await archiveHashes(product, 'reports/', bucket))).toEqual([]);
  });

  // Fails today: a daily run archives only the newest report day, so a day whose run and
  // Lambda retries were all throttled is never archived unless an operator backfills it.
  it('archives a report day missed entirely on the next scheduled run', async () => {
    const bucket = `${product.res.bucket}-outage`;
    await configure(bucket);
    product.emulator.setFaults(throttle(12));
    const throttled = await withLambdaRetries('report-fetcher');
    product.emulator.setFaults([]);
    expect(throttled.map((a) => a.ok)).toEqual([false, false, false]);
    // The next daily schedule, 06:00 the following day, after the refresher's run.
    const now = product.emulator.now().getTime();
    product.emulator.advanceClock(
      (Math.floor(now / DAY_MS + 1) * DAY_MS + 6 * 3_600_000 - now) / 1000,
    );
    await product.run('token-refresher');
    expect((await invoke('report-fetcher')).ok).toBe(true);
    const archive = await archiveHashes(product, 'reports/', bucket);
    // Snapshots are of the day they are taken and cannot be made up; the reports can.
    expect(reports(baseline, reportDay).size).toBeGreaterThan(0);
    expect(archiveDiff(reports(baseline, reportDay), reports(archive, reportDay))).toEqual([]);
  });
});

describe('Throttled service (every call 429 for a while): infection-alerter', () => {
  beforeAll(async () => {
    await configure(`${product.res.bucket}-alerts`);
    // A past clock would make every endpoint offline by the functions' clock.
    await offlineOffForPastClock(product.aws.clients.s3, `${product.res.bucket}-alerts`);
    await product.run('token-refresher');
    await product.run('infection-alerter');
    await product.healthAlerts();
  });

  it('rides out the throttle within one run when the retry budget allows it', async () => {
    await configure(`${product.res.bucket}-alerts`, {
      SKYWATCH_MAX_ATTEMPTS: '10',
      SKYWATCH_MAX_RETRY_WAIT_MS: '30000',
    });
    const infected = await infect(2, 0);
    product.emulator.setFaults(throttleWalk(6));
    const run = await invoke('infection-alerter');
    product.emulator.setFaults([]);
    expect(run.ok).toBe(true);
    expect(run.retries).toEqual(Array(6).fill(1000));
    expect(await alertedIds()).toEqual([...infected].sort());
  });

  it('alerts on a Lambda retry when a run runs out of budget', async () => {
    await configure(`${product.res.bucket}-alerts`);
    const infected = await infect(2, 1);
    product.emulator.setFaults(throttleWalk(6));
    const attempts = await withLambdaRetries('infection-alerter');
    product.emulator.setFaults([]);
    expect(attempts.map((a) => a.ok)).toEqual([false, true]);
    expect(attempts[0]?.ok === false && attempts[0].error.message).toMatch(/HTTP 429/);
    expect(await alertedIds()).toEqual([...infected].sort());
  });

  it('alerts on the next scheduled run when every Lambda attempt was throttled', async () => {
    const infected = await infect(2, 2);
    product.emulator.setFaults(throttleWalk(12));
    const throttled = await withLambdaRetries('infection-alerter');
    product.emulator.setFaults([]);
    expect(throttled.map((a) => a.ok)).toEqual([false, false, false]);
    expect(await alertedIds()).toEqual([]);
    // The next scheduled run, five minutes on, after the refresher's.
    product.emulator.advanceClock(300);
    await product.run('token-refresher');
    expect((await invoke('infection-alerter')).ok).toBe(true);
    expect(await alertedIds()).toEqual([...infected].sort());
  });
});
