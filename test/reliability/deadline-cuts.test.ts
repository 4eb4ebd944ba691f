import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { SkywatchClient } from '../../lib/index.js';
import { DEMO_AUTH } from '../../scripts/local/function-env.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';
import {
  type ArchivedReports,
  archiveDiff,
  archiveEtags,
  type JobHarness,
  openJob,
  openUploads,
  PART_SIZE,
  runToEnd,
} from './support/day-jobs.js';
import { systemClock as virtualClock } from './support/virtual-time.js';

/**
 * A large console archived site by site, its walks cut by the invocation's deadline at random
 * pages, and by minutes of throttling: every object must come out byte for byte as a run that
 * met neither, with no half object or open upload left and no site missing from the manifest.
 */
const RUNS = Number(process.env.CUT_RUNS ?? 100);
/** Runs at once: each has its own bucket and client, and none changes the emulator. */
const RUNS_AT_ONCE = 3;
const NOW = '2026-06-15T12:00:00Z';

let emulator: Emulator;
let aws: LocalAws;
let h: JobHarness;
let reports: ArchivedReports;
let baseline: { bucket: string; etags: Map<string, string> };
let totalPages = 0;

/** A seeded generator, so a failing run can be replayed from its seed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * A client of its own for each run, as each invocation has, so that concurrent runs' limiters
 * never hear of each other's calls. Retry-After (1 s on every refusal) and back-offs are
 * honoured on the virtual clock, without being waited out.
 */
function client(): SkywatchClient {
  return new SkywatchClient({
    baseUrl: emulator.baseUrl,
    authUrl: emulator.authUrl,
    auth: DEMO_AUTH,
    retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50, rateLimitBaseDelayMs: 10 },
    clock: virtualClock,
  });
}

beforeAll(async () => {
  emulator = await startEmulator({
    now: NOW,
    seed: 11,
    gsmCount: 1,
    sitesPerGsm: 4,
    endpointsPerGsm: 1_200,
  });
  // Parts of 64 KiB instead of S3's 5 MiB, with moto refusing smaller ones as S3 does.
  aws = await startLocalAws({ moto: { env: { S3_UPLOAD_PART_MIN_SIZE: String(PART_SIZE) } } });
  h = {
    s3: aws.clients.s3,
    gsm: emulator.info().gsms[0]?.key ?? '',
    snapshotDate: NOW.slice(0, 10),
    client: client(),
  };
  const opened = await openJob(h, 'cuts-baseline');
  reports = opened.archived;
  const { outcome } = await runToEnd(h, 'cuts-baseline', opened.held, () => undefined);
  totalPages = outcome.held.job.stats.pages;
  baseline = { bucket: 'cuts-baseline', etags: await archiveEtags(h.s3, 'cuts-baseline') };
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  await aws?.moto.stop();
});

describe('Reliability: walks cut by the deadline', () => {
  it('the fault-free run walks every site in several parts', () => {
    expect(totalPages).toBeGreaterThan(40);
    const sites = emulator.info().gsms[0]?.sites.length ?? 0;
    const snapshots = [...baseline.etags.keys()].filter((k) =>
      /\/site=[^/]+\/snapshot\.ndjson\.gz$/.test(k),
    );
    expect(snapshots).toHaveLength(sites * 2);
  });

  it(`gives byte-identical objects over ${RUNS} runs cut at random pages`, async () => {
    let cutRuns = 0;
    const oneRun = async (run: number) => {
      const next = random(run);
      const bucket = `cuts-${run}`;
      const own = { ...h, client: client() };
      const { held } = await openJob(own, bucket, reports);
      // One to three cuts a run, each after a random number of pages.
      const cuts = 1 + Math.floor(next() * 3);
      const { outcome, invocations } = await runToEnd(own, bucket, held, (n) =>
        n <= cuts ? 1 + Math.floor(next() * (totalPages / cuts)) : undefined,
      );
      expect({ run, differing: await archiveDiff(h.s3, bucket, baseline) }).toEqual({
        run,
        differing: [],
      });
      expect({ run, uploads: await openUploads(h.s3, bucket) }).toEqual({ run, uploads: 0 });
      expect(outcome.manifest?.complete).toBe(true);
      expect(outcome.manifest?.sites.missing).toEqual([]);
      // A cut after a walk's last page ends nothing: the job then needs fewer invocations.
      expect(invocations).toBeLessThanOrEqual(cuts + 1);
      if (invocations > 1) cutRuns++;
    };
    const limit = pLimit(RUNS_AT_ONCE);
    // Every run ends before the first failure is reported, so none outlives the servers.
    const ended = await Promise.allSettled(
      Array.from({ length: RUNS }, (_, i) => limit(() => oneRun(i + 1))),
    );
    const failed = ended.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    expect(cutRuns).toBeGreaterThan(RUNS * 0.9);
  }, 600_000);
});

describe('Reliability: a throttled service', () => {
  it('finishes the day later, byte-identical, when every call is refused for a long stretch', async () => {
    const { held } = await openJob(h, 'throttled', reports);
    // Far more refusals than the client's own retries absorb: tasks fail again and again and
    // go back to the job's queue until the service answers again.
    emulator.setFaults(
      (['status.site', 'status.site.dnsp', 'report.site.dnsp'] as const).map((operation) => ({
        operation,
        kind: 'status' as const,
        status: 429 as const,
        count: 25,
      })),
    );
    // The job's waits before a refused task runs again, skipped on the virtual clock.
    const waits: number[] = [];
    const { outcome } = await runToEnd(h, 'throttled', held, () => undefined, {
      sleep: (ms) => {
        waits.push(ms);
        return virtualClock.sleep(ms);
      },
    });
    emulator.setFaults([]);
    expect(outcome.held.job.stats.throttles).toBeGreaterThan(0);
    // Each the service's Retry-After (1 s), as it asked.
    expect(waits.length).toBeGreaterThan(0);
    expect(new Set(waits)).toEqual(new Set([1000]));
    expect(outcome.manifest?.complete).toBe(true);
    expect(await archiveDiff(h.s3, 'throttled', baseline)).toEqual([]);
    expect(await openUploads(h.s3, 'throttled')).toBe(0);
  }, 300_000);
});
