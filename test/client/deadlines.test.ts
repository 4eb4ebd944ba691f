import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpError, TimeoutError } from '../../lib/index.js';
import { startWorld, virtualClock, type World } from './support/world.js';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(() => w.emu.close());

describe('SkywatchClient: a call deadline and the client deadline', () => {
  it('keeps the Lambda deadline when a call passes a later one', async () => {
    // Prepare
    const v = virtualClock(w.emu);
    const client = w.client({
      clock: v.clock,
      remainingTimeMs: () => 2_500,
      reserveMs: 500,
      retry: { maxAttempts: 5 },
    });
    await client.gsmUsageReport(w.gsm.key); // token first
    w.emu.resetStats();
    w.emu.setFaults([
      { operation: 'report.gsm', kind: 'status', status: 503, retryAfterSeconds: 5 },
    ]);
    // Act
    const error = await client
      .gsmUsageReport(w.gsm.key, { deadline: v.clock.now() + 600_000 })
      .catch((e: unknown) => e);
    // Assess: a 5 s Retry-After does not fit in the 2 s the invocation has left.
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(503);
    expect(w.emu.stats().byOperation['report.gsm']).toBe(1);
    expect(v.sleeps).toEqual([]);
  });

  it('keeps a call deadline earlier than the client one', async () => {
    const v = virtualClock(w.emu);
    const client = w.client({ clock: v.clock, remainingTimeMs: () => 600_000 });
    await client.gsmUsageReport(w.gsm.key);
    w.emu.setFaults([
      { operation: 'report.gsm', kind: 'status', status: 503, retryAfterSeconds: 5 },
    ]);
    const error = await client
      .gsmUsageReport(w.gsm.key, { deadline: v.clock.now() + 3_000 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'HttpError', status: 503 });
    expect(v.sleeps).toEqual([]);
  });

  it('stops waiting for a token at the call deadline', async () => {
    // Prepare: the token endpoint answers far later than the call may take.
    const v = virtualClock(w.emu);
    const client = w.client({ clock: v.clock });
    w.emu.setFaults([{ operation: 'token', kind: 'latency', latencyMs: 8_000, count: 1 }]);
    // Act
    const error = await client
      .gsmUsageReport(w.gsm.key, { deadline: v.clock.now() + 300 })
      .catch((e: unknown) => e);
    // Assess: the call gave up while the token request was still in flight.
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).kind).toBe('deadline');
    expect((error as Error).message).toMatch(/token/);
    expect(w.emu.stats().tokenGrants.password).toBe(0);
    expect(w.emu.stats().byOperation['report.gsm']).toBeUndefined();
  });

  it('bounds the token wait by the client deadline too', async () => {
    const v = virtualClock(w.emu);
    const client = w.client({ clock: v.clock, remainingTimeMs: () => 800, reserveMs: 500 });
    w.emu.setFaults([{ operation: 'token', kind: 'latency', latencyMs: 8_000, count: 1 }]);
    const error = await client.gsmUsageReport(w.gsm.key).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TimeoutError', kind: 'deadline' });
    expect(w.emu.stats().tokenGrants.password).toBe(0);
  });
});
