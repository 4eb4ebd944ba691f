import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { FaultRule } from '../../emulator/index.js';
import { archiveDiff } from './support/archive.js';
import { runScenario, type ScenarioResult } from './support/scenario.js';
import { skippedMs } from './support/virtual-time.js';

// Back-offs and each Retry-After are the client's own decisions; they are honoured on a virtual
// clock instead of waited out (support/virtual-time.ts). One instance serves the mock and this
// file, whatever vi.resetModules does later.
const virtualTime = await vi.hoisted(() => import('./support/virtual-time.js'));
vi.mock('../../lib/http/clock.js', () => virtualTime);

/**
 * The fault mix, drawn per request from the emulator's seeded PRNG. Rules are checked
 * in order and the first status/reset/revoke that fires wins, so the later ones fire a little
 * less often than their nominal rate; the figures report what was injected.
 */
const FAULTS: FaultRule[] = [
  { kind: 'status', status: 500, probability: 0.025 },
  { kind: 'status', status: 502, probability: 0.025 },
  { kind: 'status', status: 503, probability: 0.025, retryAfterSeconds: 0 },
  { kind: 'status', status: 504, probability: 0.025 },
  { kind: 'status', status: 429, probability: 0.05, retryAfterSeconds: 1 },
  { kind: 'reset', probability: 0.02 },
  // Slower than SKYWATCH_ATTEMPT_TIMEOUT_MS below: the attempt times out and is retried.
  { kind: 'latency', probability: 0.01, latencyMs: 600 },
  // Every access token revoked once, mid-run, just before a status page is served.
  { operation: 'status.gsm', kind: 'revoke', count: 1, afterRequests: 60 },
];

const SCENARIO = {
  seed: 11,
  ticks: 120,
  ticksPerDay: 12,
  env: {
    SKYWATCH_ATTEMPT_TIMEOUT_MS: '300',
    SKYWATCH_MAX_ATTEMPTS: '5',
    SKYWATCH_MAX_RETRY_WAIT_MS: '5000',
  },
};

let clean: ScenarioResult;
let faulty: ScenarioResult;
beforeAll(async () => {
  // The handlers read their environment when first imported: a fresh module registry per run.
  vi.resetModules();
  clean = await runScenario({ ...SCENARIO, faults: [] });
  vi.resetModules();
  faulty = await runScenario({ ...SCENARIO, faults: FAULTS });
  const figures = {
    ticks: faulty.ticks,
    days: faulty.days,
    requests: { clean: clean.stats.requests, faulty: faulty.stats.requests },
    faultsInjected: faulty.stats.faultsInjected,
    tokenGrants: { clean: clean.stats.tokenGrants, faulty: faulty.stats.tokenGrants },
    retries: faulty.retries,
    retriesByReason: faulty.retriesByReason,
    invocations: { clean: clean.invocations, faulty: faulty.invocations },
    archivedObjects: faulty.archive.size,
    infectionAlerts: faulty.infectionAlerts.length,
    spikeAlerts: faulty.spikeAlerts.length,
    durationMs: { clean: clean.durationMs, faulty: faulty.durationMs },
    // The client's waits, taken on the virtual clock instead.
    skippedWaitMs: skippedMs(),
  };
  console.info(`reliability figures (scheduled runs): ${JSON.stringify(figures)}`);
}, 600_000);

const counts = (xs: string[]) =>
  xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());

describe('Scheduled runs under injected faults', () => {
  it('ran every tick and really injected faults', () => {
    expect(faulty.ticks).toBeGreaterThanOrEqual(100);
    expect(clean.stats.faultsInjected).toBe(0);
    // The rules add up to about one request in six (13% measured); a tenth is a safe floor.
    expect(faulty.stats.faultsInjected).toBeGreaterThan(faulty.stats.requests / 10);
    expect(Object.keys(faulty.retriesByReason)).toEqual(
      expect.arrayContaining(['HTTP 5xx', 'HTTP 429', 'connection reset', 'attempt timeout']),
    );
    expect(clean.retries).toBe(0);
  });

  it('recovered from the mid-run revocation through a retried invocation', () => {
    const failures = (r: ScenarioResult) =>
      Object.entries(r.invocations)
        .filter(([name]) => name !== 'token-refresher')
        .reduce((n, [, c]) => n + c.failures, 0);
    expect(failures(clean)).toBe(0);
    expect(failures(faulty)).toBeGreaterThanOrEqual(1);
    // …and every failed invocation succeeded on one of Lambda's retries.
    const gaveUp = Object.entries(faulty.invocations).filter(([, c]) => c.gaveUp > 0);
    expect(gaveUp).toEqual([]);
  });

  it('archives byte-identical report objects to those of the fault-free run', () => {
    // Every daily run: 3 GSM reports, 3 site reports, a DNSP report a site, 2 snapshots; the
    // first one also catches up the CATCH_UP_DAYS (3) report days before it, without snapshots.
    const reportObjects = 3 + 3 + clean.sites;
    expect(clean.archive.size).toBe((reportObjects + 2) * (clean.days + 1) + reportObjects * 3);
    expect(archiveDiff(clean.archive, faulty.archive)).toEqual([]);
  });

  it('writes the same manifests, every day complete', () => {
    expect(clean.incompleteDays).toEqual([]);
    expect(faulty.incompleteDays).toEqual([]);
    expect(archiveDiff(clean.manifests, faulty.manifests)).toEqual([]);
    expect(clean.manifests.size).toBe(clean.days + 1 + 3);
  });

  it('alerts every injected infection exactly once', () => {
    expect(faulty.injectedInfections.length).toBeGreaterThan(10);
    for (const run of [clean, faulty]) {
      const alerted = counts(run.infectionAlerts);
      const twice = [...alerted].filter(([, n]) => n > 1).map(([id]) => id);
      const missed = run.injectedInfections.filter((id) => !alerted.has(id));
      const unexpected = [...alerted.keys()].filter((id) => !run.injectedInfections.includes(id));
      expect({ twice, missed, unexpected }).toEqual({ twice: [], missed: [], unexpected: [] });
    }
    expect(faulty.injectedInfections).toEqual(clean.injectedInfections);
  });

  it('alerts every injected blocked-URL spike once per site and day', () => {
    expect(faulty.injectedSpikes.length).toBeGreaterThan(2);
    expect(faulty.injectedSpikes).toEqual(clean.injectedSpikes);
    for (const run of [clean, faulty]) {
      const alerted = counts(run.spikeAlerts);
      expect([...alerted].filter(([, n]) => n > 1)).toEqual([]);
      expect(run.injectedSpikes.filter((s) => !alerted.has(s))).toEqual([]);
    }
    expect([...faulty.spikeAlerts].sort()).toEqual([...clean.spikeAlerts].sort());
  });
});
