import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { EndpointAction, FaultRule } from '../../emulator/index.js';
import type { FunctionName } from '../../scripts/local/functions.js';
import { type Destinations, startDestinations } from '../support/notifier-receivers.js';
import { startProduct } from '../support/product.js';
import { prng } from './support/archive.js';
import { captureOutput } from './support/capture.js';
import { deliveredEvent } from './support/health-deliveries.js';
import { skippedMs, virtualContext } from './support/virtual-time.js';

// Back-offs and each Retry-After are the client's own decisions; they are honoured on a virtual
// clock instead of waited out (support/virtual-time.ts). One instance serves the mock and this
// file, whatever vi.resetModules does later.
const virtualTime = await vi.hoisted(() => import('./support/virtual-time.js'));
vi.mock('../../lib/http/clock.js', () => virtualTime);

/**
 * 100 scheduled ticks of the alerter and the notifier while endpoints go offline and online,
 * get infected and cleaned, lose and regain protection at random (seeded), under the service
 * faults of scheduled-faults.test.ts, overlapping alerter runs, and destinations that fail
 * (503), throttle (429) or drop the connection. Every endpoint turns one way once and back
 * once, so each of its alerts must reach each receiver as exactly one trigger and one resolve.
 */
const FAULTS: FaultRule[] = [
  { kind: 'status', status: 500, probability: 0.025 },
  { kind: 'status', status: 502, probability: 0.025 },
  { kind: 'status', status: 503, probability: 0.025, retryAfterSeconds: 0 },
  { kind: 'status', status: 504, probability: 0.025 },
  { kind: 'status', status: 429, probability: 0.05, retryAfterSeconds: 1 },
  { kind: 'reset', probability: 0.02 },
  { kind: 'latency', probability: 0.01, latencyMs: 600 },
  { operation: 'status.gsm', kind: 'revoke', count: 1, afterRequests: 60 },
];
const TICKS = 100;
const DESTINATIONS = ['slack', 'teams', 'pagerduty', 'webhook'] as const;
const CHANGES: Record<string, { on: EndpointAction; off: EndpointAction; alerts: string[] }> = {
  offline: { on: 'go-offline', off: 'come-online', alerts: ['offline'] },
  infected: { on: 'infect', off: 'clean', alerts: ['infected', 'attention-required'] },
  protection: {
    on: 'protection-off',
    off: 'protection-on',
    alerts: ['protection-off', 'attention-required'],
  },
};

interface Outcome {
  expected: Set<string>;
  bootstrap: Set<string>;
  received: Record<string, Map<string, string[]>>;
  receiverFaults: number;
  serviceFaults: number;
  failedRuns: number;
  overlapping: number;
  deadLetters: number;
}

let outcome: Outcome;

async function scenario(): Promise<Outcome> {
  vi.resetModules();
  const product = await startProduct(
    { seed: 23 },
    {
      POWERTOOLS_LOG_LEVEL: 'CRITICAL',
      SKYWATCH_ATTEMPT_TIMEOUT_MS: '300',
      SKYWATCH_MAX_ATTEMPTS: '5',
      SKYWATCH_MAX_RETRY_WAIT_MS: '5000',
      NOTIFY_BASE_DELAY_MS: '5',
      NOTIFY_MAX_DELAY_MS: '50',
      NOTIFY_ATTEMPT_TIMEOUT_MS: '2000',
    },
  );
  const to: Destinations = await startDestinations(product);
  try {
    const rand = prng(23);
    const faultRand = prng(99);
    let receiverFaults = 0;
    for (const name of DESTINATIONS) {
      to[name].answer = () => {
        const x = faultRand();
        const status = x < 0.1 ? 503 : x < 0.15 ? 429 : x < 0.18 ? 0 : 200;
        if (status !== 200) receiverFaults++;
        return status;
      };
    }
    const run = (name: FunctionName) => product.run(name, {}, virtualContext(name));
    let failedRuns = 0;
    let overlapping = 0;
    /** One scheduled run with Lambda's asynchronous retries; true when an attempt succeeded. */
    const alerter = async (): Promise<boolean> => {
      for (let attempt = 1; attempt <= 3; attempt++) {
        try {
          await run('infection-alerter');
          return true;
        } catch {
          failedRuns++;
          // Only the refresher replaces a revoked token; its schedule fires in between.
          await run('token-refresher').catch(() => undefined);
        }
      }
      return false;
    };
    const tick = async (overlap: boolean) => {
      await run('token-refresher').catch(() => undefined);
      if (overlap) overlapping++;
      const runs = await Promise.all(overlap ? [alerter(), alerter()] : [alerter()]);
      await to.notify();
      return runs.some(Boolean);
    };

    // Bootstrap without faults: the first full check alerts what the data already has.
    await tick(false);
    const bootstrap = new Set(
      DESTINATIONS.flatMap((d) => to[d].accepted().map((r) => deliveredEvent(d, r).id)),
    );
    const sites = product.emulator.info().gsms[0]?.sites ?? [];
    const busy = new Set([...bootstrap].map((id) => id.split('/').at(-1)));
    const pool = sites
      .flatMap((s) => product.emulator.machineIds(s.key, 30))
      .filter((id) => !busy.has(id));
    const expected = new Set<string>();
    // Each endpoint turns once, one way, and is turned back some ticks later.
    // A state that starts and ends between two successful looks cannot be seen by anyone who
    // polls: a change is turned back only once a run succeeded while it held.
    const pending: { id: string; change: string; backAt: number; seen: boolean }[] = [];
    product.emulator.setFaults(FAULTS);
    for (let t = 1; t <= TICKS; t++) {
      product.emulator.advanceClock(300 + Math.floor(rand() * 601));
      for (const p of pending.filter((x) => x.backAt <= t && x.seen)) {
        product.emulator.endpointAction(p.id, CHANGES[p.change]?.off ?? 'touch');
        pending.splice(pending.indexOf(p), 1);
      }
      if (t <= TICKS - 10 && rand() < 0.5) {
        for (let n = 1 + Math.floor(rand() * 2); n > 0 && pool.length > 0; n--) {
          const [id] = pool.splice(Math.floor(rand() * pool.length), 1);
          const change = Object.keys(CHANGES)[Math.floor(rand() * 3)] ?? 'offline';
          if (!id) continue;
          product.emulator.endpointAction(id, CHANGES[change]?.on ?? 'touch');
          pending.push({ id, change, backAt: t + 1 + Math.floor(rand() * 8), seen: false });
          for (const kind of CHANGES[change]?.alerts ?? []) expected.add(`${kind}/${id}`);
        }
      }
      if (await tick(rand() < 0.1)) for (const p of pending) p.seen = true;
    }
    for (const p of pending)
      product.emulator.endpointAction(p.id, CHANGES[p.change]?.off ?? 'touch');
    const serviceFaults = product.emulator.stats().faultsInjected;
    product.emulator.setFaults([]);
    for (const name of DESTINATIONS) to[name].answer = () => 200;
    for (let i = 0; i < 3; i++) await tick(false);

    const deadLetters = (await to.deadLetters()).length;
    const received: Outcome['received'] = {};
    for (const name of DESTINATIONS) {
      const byId = new Map<string, string[]>();
      for (const r of to[name].accepted()) {
        const { id, action } = deliveredEvent(name, r);
        byId.set(id, [...(byId.get(id) ?? []), action]);
      }
      received[name] = byId;
    }
    return {
      expected,
      bootstrap,
      received,
      receiverFaults,
      serviceFaults,
      failedRuns,
      overlapping,
      deadLetters,
    };
  } finally {
    await to.close();
    await product.close();
  }
}

beforeAll(async () => {
  const output: string[] = [];
  outcome = await captureOutput(scenario, output);
  const { expected, received: _r, bootstrap: _b, ...figures } = outcome;
  console.info(
    `reliability figures (health alerts): ${JSON.stringify({ ticks: TICKS, alerts: expected.size, ...figures, skippedWaitMs: skippedMs() })}`,
  );
}, 900_000);

describe('Health alerts under faults, 100 ticks', () => {
  it('really injected faults and changed endpoints', () => {
    expect(outcome.expected.size).toBeGreaterThan(40);
    expect(outcome.serviceFaults).toBeGreaterThan(20);
    expect(outcome.receiverFaults).toBeGreaterThan(20);
    expect(outcome.overlapping).toBeGreaterThan(3);
    expect(outcome.failedRuns).toBeGreaterThan(0);
    // Nothing was refused, so nothing is left for an operator.
    expect(outcome.deadLetters).toBe(0);
  });

  it('delivers exactly one trigger and one resolve per alert to each receiver', () => {
    const wrong = DESTINATIONS.flatMap((name) => {
      const byId = outcome.received[name] ?? new Map();
      return [...outcome.expected]
        .map((id) => [name, id, (byId.get(id) ?? []).join(',')] as const)
        .filter(([, , actions]) => actions !== 'trigger,resolve');
    });
    expect(wrong).toEqual([]);
  });

  it('delivers nothing but those alerts and the ones the data started with', () => {
    for (const name of DESTINATIONS) {
      const ids = [...(outcome.received[name]?.keys() ?? [])];
      const unexpected = ids.filter(
        (id) => !outcome.expected.has(id) && !outcome.bootstrap.has(id),
      );
      expect({ name, unexpected }).toEqual({ name, unexpected: [] });
    }
  });
});
