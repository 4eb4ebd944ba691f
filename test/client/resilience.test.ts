import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  HttpError,
  NetworkError,
  RateLimitError,
  SchemaError,
  TimeoutError,
} from '../../lib/index.js';
import { CUSTOMER, startWorld, virtualClock, type World } from './support/world.js';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(() => w.emu.close());

function tracked(extra: Parameters<World['client']>[0] = {}) {
  const retries: string[] = [];
  const v = virtualClock(w.emu);
  const client = w.client({
    clock: v.clock,
    hooks: { onRetry: (e) => retries.push(e.reason) },
    ...extra,
  });
  return { client, retries, sleeps: v.sleeps, clock: v.clock };
}

describe('Retries against injected faults', () => {
  it('retries 429 and 503 on GETs, honouring Retry-After', async () => {
    const { client, retries, sleeps } = tracked();
    w.emu.setFaults([
      { operation: 'report.gsm', kind: 'status', status: 429, count: 1, retryAfterSeconds: 2 },
      { operation: 'report.gsm', kind: 'status', status: 503, count: 1, retryAfterSeconds: 1 },
    ]);
    const report = await client.gsmUsageReport(w.gsm.key);
    expect(report.GSM?.GSMConsoleName).toBe(w.gsm.name);
    expect(retries).toEqual(['HTTP 429', 'HTTP 503']);
    expect(sleeps).toEqual([2000, 1000]);
  });

  it('retries 500, 502 and 504 with jittered backoff', async () => {
    const { client, retries, sleeps } = tracked();
    w.emu.setFaults([
      { operation: 'report.sites', kind: 'status', status: 500, count: 1 },
      { operation: 'report.sites', kind: 'status', status: 502, count: 1 },
      { operation: 'report.sites', kind: 'status', status: 504, count: 1 },
    ]);
    await client.sitesUsageReport(w.gsm.key);
    expect(retries).toEqual(['HTTP 500', 'HTTP 502', 'HTTP 504']);
    expect(sleeps).toEqual([100, 200, 400]);
  });

  it('raises RateLimitError with retryAfter once attempts run out', async () => {
    const { client, retries } = tracked({ retry: { maxAttempts: 3 } });
    w.emu.setFaults([
      { operation: 'report.gsm', kind: 'status', status: 429, retryAfterSeconds: 1 },
    ]);
    const error = await client.gsmUsageReport(w.gsm.key).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({
      status: 429,
      retryAfter: 1000,
      problem: { code: 'rate_limited' },
    });
    expect(retries).toHaveLength(2);
  });

  it('retries a reset connection and a cut-short or malformed body on GETs', async () => {
    const { client, retries } = tracked();
    w.emu.setFaults([
      { operation: 'status.gsm', kind: 'reset', count: 1 },
      { operation: 'status.gsm', kind: 'truncate', count: 1, afterRequests: 1 },
      { operation: 'status.gsm', kind: 'malformed', count: 1, afterRequests: 2 },
    ]);
    let n = 0;
    for await (const _ of client.gsmAgentStatus(w.gsm.key, { batchSize: 40 })) n++;
    expect(n).toBe(w.gsm.endpointCount);
    expect(retries.length).toBeGreaterThanOrEqual(3);
    expect(w.emu.stats().faultsInjected).toBe(3);
  });

  it('raises SchemaError when every answer is malformed', async () => {
    const { client } = tracked({ retry: { maxAttempts: 2 } });
    w.emu.setFaults([{ operation: 'report.gsm', kind: 'malformed' }]);
    await expect(client.gsmUsageReport(w.gsm.key)).rejects.toBeInstanceOf(SchemaError);
  });

  it('times out a slow attempt and retries it', async () => {
    const { client, retries } = tracked({ attemptTimeoutMs: 150 });
    await client.gsmUsageReport(w.gsm.key);
    w.emu.setFaults([{ operation: 'report.gsm', kind: 'latency', latencyMs: 600, count: 1 }]);
    await client.gsmUsageReport(w.gsm.key);
    expect(retries[0]).toMatch(/within 150 ms/);
  });

  it('never retries past the deadline a Lambda passes in', async () => {
    const { client, sleeps } = tracked({
      remainingTimeMs: () => 3_500,
      reserveMs: 500,
      retry: { maxAttempts: 10 },
    });
    w.emu.setFaults([
      { operation: 'report.gsm', kind: 'status', status: 503, retryAfterSeconds: 1 },
    ]);
    const error = await client.gsmUsageReport(w.gsm.key).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(503);
    // Three seconds of (virtual) waiting fit: 1 + 1 s, a third would end on the deadline.
    expect(w.emu.stats().byOperation['report.gsm']).toBe(3);
    // Both waits went through the client's (virtual) clock: nothing slept in real time.
    expect(sleeps).toEqual([1_000, 1_000]);
  });

  it('raises TimeoutError(deadline) when the deadline cuts a slow answer', async () => {
    const { client, clock } = tracked();
    await client.gsmUsageReport(w.gsm.key);
    w.emu.setFaults([{ operation: 'report.gsm', kind: 'latency', latencyMs: 2_000 }]);
    // An absolute deadline is read on the client's clock.
    const deadline = clock.now() + 300;
    const error = await client.gsmUsageReport(w.gsm.key, { deadline }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).kind).toBe('deadline');
    // The attempt was cut to the time left, not left to the 10 s attempt timeout.
    const cut = Number(/within (\d+) ms/.exec((error as Error).message)?.[1]);
    expect(cut).toBeGreaterThan(0);
    expect(cut).toBeLessThanOrEqual(300);
  });
});

describe('POST (4.10) retries', () => {
  it('does not resend a POST after a 503 or a reset', async () => {
    const { client, retries } = tracked();
    w.emu.setFaults([{ operation: 'cart.customers', kind: 'status', status: 503, count: 1 }]);
    const first = await client
      .addCartCustomers(w.standardCart.vendorOrderCode, { Shipping: CUSTOMER })
      .catch((e: unknown) => e);
    expect(first).toMatchObject({ name: 'HttpError', status: 503 });
    w.emu.setFaults([{ operation: 'cart.customers', kind: 'reset', count: 1 }]);
    const second = await client
      .addCartCustomers(w.standardCart.vendorOrderCode, { Shipping: CUSTOMER })
      .catch((e: unknown) => e);
    expect(second).toBeInstanceOf(NetworkError);
    expect((second as NetworkError).connect).toBe(false);
    expect(w.emu.stats().byOperation['cart.customers']).toBe(2);
    expect(retries).toEqual([]);
  });

  it('resends a POST whose connection was refused', async () => {
    const { client, retries } = tracked({ retry: { maxAttempts: 2 } });
    await client.gsmUsageReport(w.gsm.key); // token first, so only the POST meets the closed port
    await w.emu.close();
    // Let the client see its idle keep-alive socket close: a POST written to a socket the server
    // is closing at that moment may have arrived, and is rightly not resent.
    await new Promise((resolve) => setTimeout(resolve, 50));
    try {
      const error = await client
        .addCartCustomers(w.standardCart.vendorOrderCode, { Shipping: CUSTOMER })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'NetworkError', connect: true });
      expect((error as Error).message).toContain('ECONNREFUSED');
      expect(retries).toHaveLength(1);
    } finally {
      w = await startWorld();
    }
  });

  it('replays a POST once after a 401 with a fresh token', async () => {
    const { client } = tracked();
    w.emu.setFaults([{ operation: 'cart.customers', kind: 'revoke', count: 1 }]);
    const res = await client.addCartCustomers(w.resellerCart.vendorOrderCode, {
      Shipping: CUSTOMER,
    });
    expect(res.Shipping?.CustomerTypeId).toBe(2);
    expect(w.emu.stats().byOperation['cart.customers']).toBe(2);
  });
});
