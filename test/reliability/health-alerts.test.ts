import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { EndpointAction, FaultRule } from '../../emulator/index.js';
import { DEFAULT_SETTINGS } from '../../infra/config/settings.js';
import type { FunctionName } from '../../scripts/local/functions.js';
import { readHistory, type StoredRow } from '../support/alert-history.js';
import {
  type Destinations,
  offsetClock,
  startDestinations,
} from '../support/notifier-receivers.js';
import { startProduct } from '../support/product.js';
import type { Received } from '../support/receivers.js';
import { prng } from './support/archive.js';
import { captureOutput } from './support/capture.js';
import { judgeHistory } from './support/history-check.js';
import {
  type Destination,
  faithful,
  type Timeline,
  timelines,
} from './support/receiver-timeline.js';
import { skippedMs, virtualContext } from './support/virtual-time.js';

// Back-offs, Retry-After and the queue's visibility timeouts are the product's own decisions;
// they run on a virtual clock instead of being waited out (support/virtual-time.ts). One
// instance serves the mock, this file and the queue's event source.
const virtualTime = await vi.hoisted(() => import('./support/virtual-time.js'));
vi.mock('../../lib/http/clock.js', () => virtualTime);

/**
 * 200 ticks of the alerter's one-minute schedule and of the notifier's FIFO queue while
 * endpoints go offline and online, get infected and cleaned, lose and regain protection at
 * random (seeded), under service faults, overlapping alerter runs, and receivers that fail at
 * random: 5xx, 429 with a Retry-After of up to a minute, a redirect, a request taken and never
 * answered (past the notifier's timeout), and PagerDuty answering 401 for half an hour until an
 * operator fixes it and redrives the dead-letter queue. A failed delivery comes back only when
 * its visibility ends: the back-off the notifier set, or the queue's own timeout as deployed.
 * Each endpoint turns one way once, and most turn back; judged at every receiver as its user
 * sees it, every alert must show its true history: trigger first, alternating, ending in the
 * endpoint's state, nothing lost and nothing twice. The alert history the two functions wrote
 * must say the same: what each receiver got, each transition recorded once.
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
const TICKS = 200;
const TICK_MS = 60_000;
/** PagerDuty refuses every request (401: a rotated routing key) from this tick to the next. */
const UNAUTHORISED = { from: 80, to: 110 };
const DESTINATIONS: Destination[] = ['slack', 'teams', 'pagerduty', 'webhook'];
const CHANGES: Record<string, { on: EndpointAction; off: EndpointAction; alerts: string[] }> = {
  offline: { on: 'go-offline', off: 'come-online', alerts: ['offline'] },
  infected: { on: 'infect', off: 'clean', alerts: ['infected'] },
  protection: { on: 'protection-off', off: 'protection-on', alerts: ['protection-off'] },
};

interface Outcome {
  /** Alert id → whether the endpoint still has the condition at the end. */
  expected: Map<string, boolean>;
  bootstrap: Set<string>;
  shown: Record<Destination, Map<string, Timeline>>;
  faults: Record<string, number>;
  serviceFaults: number;
  failedRuns: number;
  overlapping: number;
  redriven: number;
  redelivered: number;
  deadLettersLeft: number;
  /** Every request each receiver got, and the alert history as the bucket holds it after. */
  requests: Record<Destination, Received[]>;
  history: { objects: number; rows: StoredRow[] };
}

let outcome: Outcome;
let history: ReturnType<typeof judgeHistory>;

async function scenario(): Promise<Outcome> {
  vi.resetModules();
  const product = await startProduct(
    { seed: 23 },
    {
      POWERTOOLS_LOG_LEVEL: 'CRITICAL',
      SKYWATCH_ATTEMPT_TIMEOUT_MS: '300',
      SKYWATCH_MAX_ATTEMPTS: '5',
      SKYWATCH_MAX_RETRY_WAIT_MS: '5000',
      NOTIFY_ATTEMPT_TIMEOUT_MS: '500',
    },
  );
  // The schedule's time, on which the queue's visibility timeouts end: one minute a tick. The
  // product's own waits (back-offs, Retry-After inside an invocation) run on virtualTime.
  const platform = offsetClock();
  const to: Destinations = await startDestinations(product, platform);
  try {
    const rand = prng(23);
    const faultRand = prng(99);
    const faults: Record<string, number> = {};
    let tick = 0;
    for (const name of DESTINATIONS) {
      const receiver = to[name];
      receiver.answer = () => {
        if (name === 'pagerduty' && tick >= UNAUTHORISED.from && tick < UNAUTHORISED.to)
          return count(faults, '401', 401);
        const x = faultRand();
        if (x < 0.08) return count(faults, '5xx', 503);
        if (x < 0.12) {
          receiver.retryAfter = String(1 + Math.floor(faultRand() * 60));
          return count(faults, '429', 429);
        }
        if (x < 0.14) return count(faults, 'hang', -1);
        if (x < 0.16) return count(faults, '302', 302);
        return name === 'slack' ? 200 : name === 'webhook' ? 204 : 202;
      };
    }
    const run = (name: FunctionName) => product.run(name, {}, virtualContext(name));
    let failedRuns = 0;
    let overlapping = 0;
    let redriven = 0;
    let redelivered = 0;
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
    // The refresher's schedule as deployed: every few minutes, the alerter every minute.
    const refreshEvery =
      DEFAULT_SETTINGS.tokenRefreshMinutes / DEFAULT_SETTINGS.infectionAlertMinutes;
    const step = async (overlap: boolean) => {
      if (tick % refreshEvery === 0) await run('token-refresher').catch(() => undefined);
      if (overlap) overlapping++;
      const runs = await Promise.all(overlap ? [alerter(), alerter()] : [alerter()]);
      redelivered += (await to.notifyDue()).redelivered;
      return runs.some(Boolean);
    };

    // Bootstrap without faults: the first full check alerts what the data already has.
    const answers = DESTINATIONS.map((d) => to[d].answer);
    for (const d of DESTINATIONS) to[d].answer = () => (d === 'slack' ? 200 : 202);
    await step(false);
    DESTINATIONS.forEach((d, i) => {
      to[d].answer = answers[i] ?? to[d].answer;
    });
    const bootstrap = new Set(
      DESTINATIONS.flatMap((d) => [...timelines(d, to[d].requests).keys()]),
    );
    const sites = product.emulator.info().gsms[0]?.sites ?? [];
    const busy = new Set([...bootstrap].map((id) => id.split('/').at(-1)));
    const pool = sites
      .flatMap((s) => product.emulator.machineIds(s.key, 30))
      .filter((id) => !busy.has(id));
    const expected = new Map<string, boolean>();
    // A state that starts and ends between two successful looks cannot be seen by anyone who
    // polls: a change is turned back only once a run succeeded while it held.
    const pending: { id: string; change: string; backAt: number; seen: boolean }[] = [];
    product.emulator.setFaults(FAULTS);
    for (tick = 1; tick <= TICKS; tick++) {
      // The service's clock moves a second a tick: enough to order the changes, while the
      // access token (5 minutes on that clock) is refreshed by the refresher's own runs and not
      // expired by the compression of the schedule's time.
      product.emulator.advanceClock(1);
      await platform.sleep(TICK_MS);
      for (const p of pending.filter((x) => x.backAt <= tick && x.seen)) {
        product.emulator.endpointAction(p.id, CHANGES[p.change]?.off ?? 'touch');
        for (const kind of CHANGES[p.change]?.alerts ?? []) expected.set(`${kind}/${p.id}`, false);
        pending.splice(pending.indexOf(p), 1);
      }
      if (tick <= TICKS - 10 && rand() < 0.4) {
        const [id] = pool.splice(Math.floor(rand() * pool.length), 1);
        const change = Object.keys(CHANGES)[Math.floor(rand() * 3)] ?? 'offline';
        if (id) {
          product.emulator.endpointAction(id, CHANGES[change]?.on ?? 'touch');
          // One in five stays on: its alert must end open.
          const backAt =
            rand() < 0.2 ? Number.POSITIVE_INFINITY : tick + 1 + Math.floor(rand() * 8);
          pending.push({ id, change, backAt, seen: false });
          for (const kind of CHANGES[change]?.alerts ?? []) expected.set(`${kind}/${id}`, true);
        }
      }
      if (tick === UNAUTHORISED.to) redriven = await to.redriveDeadLetters();
      if (await step(rand() < 0.1)) for (const p of pending) p.seen = true;
    }
    const serviceFaults = product.emulator.stats().faultsInjected;
    product.emulator.setFaults([]);
    for (const name of DESTINATIONS) to[name].answer = () => 202;
    // The last changes are seen, and every retry still waiting runs out its back-off.
    for (let i = 0; i < 3; i++) {
      await platform.sleep(TICK_MS);
      await step(false);
    }
    redelivered += (await to.notify()).redelivered;

    const shown = Object.fromEntries(
      DESTINATIONS.map((d) => [d, timelines(d, to[d].requests)]),
    ) as Outcome['shown'];
    return {
      expected,
      bootstrap,
      shown,
      faults,
      serviceFaults,
      failedRuns,
      overlapping,
      redriven,
      redelivered,
      deadLettersLeft: (await to.deadLetters()).length,
      requests: Object.fromEntries(
        DESTINATIONS.map((d) => [d, to[d].requests]),
      ) as Outcome['requests'],
      history: await readHistory(product.aws.clients.s3, product.res.bucket),
    };
  } finally {
    await to.close();
    await product.close();
  }
}

function count(faults: Record<string, number>, name: string, status: number): number {
  faults[name] = (faults[name] ?? 0) + 1;
  return status;
}

beforeAll(async () => {
  const output: string[] = [];
  outcome = await captureOutput(scenario, output);
  const { expected, shown, bootstrap: _b, requests, history: stored, ...figures } = outcome;
  const sum = (f: (t: Timeline) => number) =>
    DESTINATIONS.reduce((n, d) => n + [...shown[d].values()].reduce((m, t) => m + f(t), 0), 0);
  console.info(
    `reliability figures (health alerts): ${JSON.stringify({
      ticks: TICKS,
      alerts: expected.size,
      open: [...expected.values()].filter(Boolean).length,
      events: sum((t) => t.actions.length),
      copiesAfterHang: sum((t) => t.afterHang),
      duplicates: sum((t) => t.duplicates),
      ...figures,
      skippedWaitMs: skippedMs(),
    })}`,
  );
  history = judgeHistory(stored.rows, requests);
  console.info(
    `reliability figures (alert history): ${JSON.stringify({
      objects: stored.objects,
      ...history.figures,
      problems: history.problems.length,
    })}`,
  );
}, 900_000);

describe('Health alerts under faults, 200 ticks', () => {
  it('really injected faults and changed endpoints', () => {
    expect(outcome.expected.size).toBeGreaterThan(40);
    expect([...outcome.expected.values()].filter(Boolean).length).toBeGreaterThan(3);
    expect(outcome.serviceFaults).toBeGreaterThan(20);
    for (const fault of ['5xx', '429', 'hang', '302', '401'])
      expect({ fault, n: outcome.faults[fault] ?? 0 }).toMatchObject({
        fault,
        n: expect.any(Number),
      });
    expect(
      Math.min(...['5xx', '429', 'hang', '302', '401'].map((f) => outcome.faults[f] ?? 0)),
    ).toBeGreaterThan(2);
    expect(outcome.overlapping).toBeGreaterThan(5);
    expect(outcome.failedRuns).toBeGreaterThan(0);
    // Deliveries came back after their visibility ended, and the refused pages were redriven.
    expect(outcome.redelivered).toBeGreaterThan(20);
    expect(outcome.redriven).toBeGreaterThan(0);
    expect(outcome.deadLettersLeft).toBe(0);
  });

  it('shows every alert at every receiver as its true history', () => {
    const wrong = DESTINATIONS.flatMap((d) =>
      [...outcome.expected].flatMap(([id, open]) => {
        const actions = outcome.shown[d].get(id)?.actions ?? [];
        return faithful(actions, open) ? [] : [`${d} ${id}: ${actions.join(',') || 'nothing'}`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('sends no event twice but where a receiver took a request without answering', () => {
    for (const d of DESTINATIONS) {
      const twice = [...outcome.shown[d]].filter(([, t]) => t.duplicates > 0).map(([id]) => id);
      expect({ d, twice }).toEqual({ d, twice: [] });
    }
  });

  it('records in its history what each receiver got, each transition once', () => {
    const { figures, problems } = history;
    // The hangs and the 401 left their marks: failures retried, refusals redriven.
    expect(figures.failedThenDelivered).toBeGreaterThan(0);
    expect(figures.refusedThenDelivered).toBeGreaterThan(0);
    // The receivers are the truth (support/history-check.ts says what is judged).
    expect(problems).toEqual([]);
  });

  it('delivers nothing but those alerts and the ones the data started with', () => {
    for (const d of DESTINATIONS) {
      const unexpected = [...outcome.shown[d].keys()].filter(
        (id) => !outcome.expected.has(id) && !outcome.bootstrap.has(id),
      );
      expect({ d, unexpected }).toEqual({ d, unexpected: [] });
    }
  });
});
