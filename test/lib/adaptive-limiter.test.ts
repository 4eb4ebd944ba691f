import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AdaptiveLimiter,
  type AdaptiveLimiterOptions,
  ClientEmitter,
  type LimitChangeReason,
  ValidationError,
} from '../../lib/index.js';

/** Lets every settled promise run its continuations (grants, starts, releases). */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

function limiter(extra: Partial<AdaptiveLimiterOptions> = {}) {
  let t = 1_000_000;
  const changes: [number, LimitChangeReason][] = [];
  const l = new AdaptiveLimiter({
    initial: 8,
    min: 1,
    max: 16,
    now: () => t,
    onChange: (limit, reason) => changes.push([limit, reason]),
    ...extra,
  });
  return {
    l,
    changes,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

/** Starts `n` runs that hold their slot until opened; `started` counts those that got one. */
function holders(l: AdaptiveLimiter, n: number) {
  const gates = Array.from({ length: n }, gate);
  let started = 0;
  const done = gates.map((g) =>
    l.run(async () => {
      started++;
      await g.opened;
    }),
  );
  return { gates, done, started: () => started };
}

describe('Class: AdaptiveLimiter', () => {
  it('halves the limit on a 429 or 503, once per window', () => {
    const { l, changes, advance } = limiter({ initial: 16, max: 32 });
    l.observe({ status: 429, durationMs: 100 });
    expect(l.limit).toBe(8);
    // The rest of the burst was sent before the cut: one signal, not many.
    l.observe({ status: 429, durationMs: 100 });
    advance(50);
    l.observe({ status: 503, durationMs: 100 });
    expect(l.limit).toBe(8);
    // Sent after the cut and throttled again: the smaller limit is still too much.
    advance(200);
    l.observe({ status: 429, durationMs: 100 });
    expect(l.limit).toBe(4);
    advance(200);
    l.observe({ status: 503, durationMs: 100 });
    expect(l.limit).toBe(2);
    expect(l.stats()).toMatchObject({ throttles: 5, decreases: 3, lowestLimit: 2, peakLimit: 16 });
    expect(changes).toEqual([
      [8, 'throttle'],
      [4, 'throttle'],
      [2, 'throttle'],
    ]);
  });

  it('never cuts below min, and waits out cooldownMs between cuts', () => {
    const { l, advance } = limiter({ min: 3, cooldownMs: 1000 });
    l.observe({ status: 429, durationMs: 10 });
    expect(l.limit).toBe(4);
    advance(500);
    l.observe({ status: 429, durationMs: 10 });
    expect(l.limit).toBe(4);
    for (let i = 0; i < 5; i++) {
      advance(1000);
      l.observe({ status: 429, durationMs: 10 });
    }
    expect(l.limit).toBe(3);
  });

  it('grows back by about one slot per window of answers, up to max', async () => {
    const { l, changes } = limiter({ initial: 2, max: 6 });
    const h = holders(l, 10);
    await flush();
    const successesAt: number[] = [];
    for (let i = 1; i <= 60; i++) {
      l.observe({ status: 200, durationMs: 50 });
      await flush();
      if (changes.length > successesAt.length) successesAt.push(i);
      expect(h.started()).toBe(l.limit);
    }
    expect(l.limit).toBe(6);
    expect(changes.map(([limit]) => limit)).toEqual([3, 4, 5, 6]);
    // Additive: a slot costs about as many answers as there were slots (fractions carry over).
    successesAt.forEach((at, i) => {
      const slots = 2 + i;
      const cost = at - (successesAt[i - 1] ?? 0);
      expect(cost).toBeGreaterThanOrEqual(slots - 1);
      expect(cost).toBeLessThanOrEqual(slots + 1);
    });
    for (const g of h.gates) g.open();
    await Promise.all(h.done);
  });

  it('does not grow a limit that most slots leave unused', () => {
    const { l } = limiter();
    for (let i = 0; i < 100; i++) l.observe({ status: 200, durationMs: 50 });
    expect(l.limit).toBe(8);
  });

  it('shrinks when latency rises well above its baseline', () => {
    const { l, changes, advance } = limiter();
    for (let i = 0; i < 30; i++) {
      advance(150);
      l.observe({ status: 200, durationMs: 100 });
    }
    expect(l.limit).toBe(8);
    for (let i = 0; i < 10 && l.limit === 8; i++) {
      advance(500);
      l.observe({ status: 200, durationMs: 400 });
    }
    expect(changes[0]).toEqual([4, 'latency']);
    expect(l.save().baselineMs).toBeGreaterThanOrEqual(100);
    expect(l.save().baselineMs).toBeLessThan(150);
  });

  it('does not take the slow first answers of a fresh process for load', () => {
    const { l, advance } = limiter({ state: { limit: 8, baselineMs: 100 } });
    for (let i = 0; i < 5; i++) {
      advance(1500);
      l.observe({ status: 200, durationMs: 1000 });
    }
    for (let i = 0; i < 20; i++) {
      advance(150);
      l.observe({ status: 200, durationMs: 100 });
    }
    expect(l.stats()).toMatchObject({ limit: 8, decreases: 0, baselineMs: 100 });
  });

  it('adopts a lasting slowdown as the new normal instead of cutting forever', () => {
    const { l, advance } = limiter({ initial: 16, max: 16 });
    for (let i = 0; i < 30; i++) {
      advance(150);
      l.observe({ status: 200, durationMs: 100 });
    }
    for (let i = 0; i < 150; i++) {
      advance(500);
      l.observe({ status: 200, durationMs: 400 });
    }
    const cuts = l.stats().decreases;
    expect(cuts).toBeGreaterThan(0);
    for (let i = 0; i < 50; i++) {
      advance(500);
      l.observe({ status: 200, durationMs: 400 });
    }
    expect(l.stats().decreases).toBe(cuts);
  });

  it('takes signals from a client: timeouts cut, other failures do not, detach stops it', () => {
    const { l, changes, advance } = limiter();
    const events = new ClientEmitter();
    const detach = l.attach({ events });
    const attempt = { method: 'GET', url: 'https://x/api', attempt: 1, durationMs: 10 };
    events.emit('requestFailed', { ...attempt, reason: 'ECONNRESET' });
    expect(l.limit).toBe(8);
    events.emit('requestFailed', { ...attempt, reason: 'timeout' });
    expect(l.limit).toBe(4);
    advance(100);
    events.emit('response', { ...attempt, status: 429 });
    expect(l.limit).toBe(2);
    expect(changes).toEqual([
      [4, 'timeout'],
      [2, 'throttle'],
    ]);
    detach();
    advance(100);
    events.emit('response', { ...attempt, status: 429 });
    expect(l.limit).toBe(2);
    expect(l.stats()).toMatchObject({ timeouts: 1, throttles: 1 });
  });

  it('carries its limit and baseline through save and restore', () => {
    const { l, advance } = limiter();
    for (let i = 0; i < 20; i++) {
      advance(150);
      l.observe({ status: 200, durationMs: 80 });
    }
    l.observe({ status: 429, durationMs: 80 });
    const saved = JSON.parse(JSON.stringify(l.save()));
    const restored = new AdaptiveLimiter({ initial: 8, min: 1, max: 16, state: saved });
    expect(restored.limit).toBe(4);
    expect(restored.save()).toEqual(l.save());
    expect(restored.stats().startedFrom).toBe('state');
    // A limit learned under other bounds is brought within the new ones.
    expect(new AdaptiveLimiter({ initial: 6, min: 5, max: 10, state: saved }).limit).toBe(5);
  });

  it('starts from initial when the saved state is unusable', () => {
    const garbage: unknown[] = [
      null,
      'limit=4',
      42,
      [],
      {},
      { limit: 4 },
      { limit: -1, baselineMs: null },
      { limit: 0, baselineMs: 100 },
      { limit: 'many', baselineMs: null },
      { limit: 4, baselineMs: -5 },
      { limit: Number.NaN, baselineMs: null },
    ];
    for (const state of garbage) {
      const l = new AdaptiveLimiter({ initial: 6, min: 1, max: 16, state });
      expect(l.limit, JSON.stringify(state)).toBe(6);
      expect(l.save()).toEqual({ limit: 6, baselineMs: null });
      expect(l.stats().startedFrom).toBe('rejected-state');
    }
  });

  it('serves waiting work first come first served', async () => {
    const { l } = limiter({ initial: 2, max: 2 });
    const order: number[] = [];
    const gates = Array.from({ length: 8 }, gate);
    const done = gates.map((g, i) =>
      l.run(async () => {
        order.push(i);
        await g.opened;
      }),
    );
    await flush();
    expect(order).toEqual([0, 1]);
    // Free slots out of order: the queue still moves from its head.
    for (const i of [1, 0, 3, 2, 5, 4, 7, 6]) {
      gates[i]?.open();
      await flush();
    }
    await Promise.all(done);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('never cancels work in flight; new work waits until fewer than limit run', async () => {
    const { l } = limiter({ initial: 4 });
    const h = holders(l, 4);
    await flush();
    l.observe({ status: 429, durationMs: 10 });
    expect(l.limit).toBe(2);
    let lateStarted = false;
    const late = l.run(async () => {
      lateStarted = true;
    });
    for (const i of [0, 1]) {
      h.gates[i]?.open();
      await flush();
      expect(lateStarted).toBe(false);
    }
    h.gates[2]?.open();
    await flush();
    expect(lateStarted).toBe(true);
    h.gates[3]?.open();
    await Promise.all([...h.done, late]);
    expect(h.started()).toBe(4);
  });

  it('frees the slot of work that throws and hands the error back', async () => {
    const { l } = limiter({ initial: 1, max: 1 });
    const failure = l.run(async () => {
      throw new Error('page lost');
    });
    const next = l.run(async () => 'next page');
    await expect(failure).rejects.toThrow('page lost');
    await expect(next).resolves.toBe('next page');
    expect(l.stats()).toMatchObject({ inFlight: 0, waiting: 0 });
  });

  it('refuses options that break the rules', () => {
    const bad: Partial<AdaptiveLimiterOptions>[] = [
      { min: 0 },
      { min: 2.5 },
      { max: 0 },
      { initial: 20 },
      { initial: 0.5 },
      { latencyFactor: 1 },
      { cooldownMs: -1 },
    ];
    for (const extra of bad) {
      expect(() => limiter(extra), JSON.stringify(extra)).toThrow(ValidationError);
    }
  });

  it('never starts work past the limit, in any order of runs, answers and time', async () => {
    const action = fc.oneof(
      fc.constant({ kind: 'run' as const }),
      fc.record({ kind: fc.constant('finish' as const), pick: fc.nat() }),
      fc.record({
        kind: fc.constant('observe' as const),
        status: fc.constantFrom(200, 200, 200, 404, 429, 500, 503),
        durationMs: fc.integer({ min: 0, max: 600 }),
      }),
      fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 1000 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 60 }), async (actions) => {
        const { l, advance } = limiter({ initial: 3, min: 1, max: 6 });
        let running = 0;
        let overLimit = 0;
        const queued: number[] = [];
        const startOrder: number[] = [];
        const open: (() => void)[] = [];
        const done: Promise<void>[] = [];
        for (const a of actions) {
          if (a.kind === 'run') {
            const id = queued.length;
            queued.push(id);
            const g = gate();
            done.push(
              l.run(async () => {
                running++;
                if (running > l.limit) overLimit++;
                startOrder.push(id);
                open.push(g.open);
                await g.opened;
                running--;
              }),
            );
          } else if (a.kind === 'finish' && open.length > 0) {
            open.splice(a.pick % open.length, 1)[0]?.();
          } else if (a.kind === 'observe') {
            l.observe(a);
          } else if (a.kind === 'tick') {
            advance(a.ms);
          }
          await flush();
        }
        while (startOrder.length < queued.length || open.length > 0) {
          for (const release of open.splice(0)) release();
          await flush();
        }
        await Promise.all(done);
        expect(overLimit).toBe(0);
        expect(startOrder).toEqual(queued);
        expect(l.limit).toBeGreaterThanOrEqual(1);
        expect(l.limit).toBeLessThanOrEqual(6);
        expect(l.stats()).toMatchObject({ inFlight: 0, waiting: 0 });
      }),
      { numRuns: 150 },
    );
  });
});
