import { afterEach, describe, expect, it } from 'vitest';
import {
  backoffDelay,
  ClientEmitter,
  DEFAULT_RETRY,
  NetworkError,
  parseRetryAfter,
  systemClock,
  TimeoutError,
  Transport,
} from '../../lib/index.js';
import {
  closeLocalServers,
  fakeClock,
  json,
  type LocalServer,
  localServer,
} from './support/local-server.js';

let server: LocalServer | undefined;
afterEach(closeLocalServers);

function transport(
  clock = fakeClock().clock,
  extra: Partial<ConstructorParameters<typeof Transport>[0]> = {},
) {
  const events = new ClientEmitter();
  const retries: string[] = [];
  events.on('retry', (e) => retries.push(e.reason));
  return { t: new Transport({ userAgent: 'Skywatch/test', clock, events, ...extra }), retries };
}

describe('Class: Transport', () => {
  it('retries a GET on 503 honouring Retry-After, then answers', async () => {
    server = await localServer((_req, res, i) => {
      if (i < 2) json(res, 503, { code: 'service_unavailable' }, { 'retry-after': '2' });
      else json(res, 200, { ok: true });
    });
    const fc = fakeClock();
    const { t, retries } = transport(fc.clock);
    const res = await t.send({ method: 'GET', url: `${server.url}/x` });
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(3);
    expect(fc.sleeps).toEqual([2000, 2000]);
    expect(retries).toEqual(['HTTP 503', 'HTTP 503']);
    expect(server.seen[0]?.headers['user-agent']).toBe('Skywatch/test');
  });

  it('uses full-jitter backoff without Retry-After and stops at maxAttempts', async () => {
    server = await localServer((_req, res) => json(res, 500, {}));
    const fc = fakeClock(undefined, 0.5);
    const { t } = transport(fc.clock, { retry: { maxAttempts: 3, baseDelayMs: 100 } });
    const res = await t.send({ method: 'GET', url: `${server.url}/x` });
    expect(res.status).toBe(500);
    expect(server.seen).toHaveLength(3);
    expect(fc.sleeps).toEqual([50, 100]);
  });

  it('never retries a POST that reached the server', async () => {
    server = await localServer((_req, res) => json(res, 503, {}, { 'retry-after': '1' }));
    const { t } = transport();
    const res = await t.send({ method: 'POST', url: `${server.url}/x`, body: '{}' });
    expect(res.status).toBe(503);
    expect(server.seen).toHaveLength(1);
  });

  it('does not retry 400, 401, 403 or 404', async () => {
    for (const status of [400, 401, 403, 404]) {
      const s = await localServer((_req, res) => json(res, status, {}));
      const { t } = transport();
      expect((await t.send({ method: 'GET', url: s.url })).status).toBe(status);
      expect(s.seen).toHaveLength(1);
      await s.close();
    }
  });

  it('retries a POST after a connect error, which proves it never reached a server', async () => {
    const closed = await localServer(() => {});
    const url = closed.url;
    await closed.close();
    const { t, retries } = transport(undefined, { retry: { maxAttempts: 3 } });
    const error = await t.send({ method: 'POST', url, body: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).connect).toBe(true);
    expect(retries).toHaveLength(2);
  });

  it('retries a GET whose connection is reset mid-body, but not a POST', async () => {
    server = await localServer((req, res, i) => {
      if (i === 0 || req.method === 'POST') {
        res.writeHead(200, { 'content-length': '100' });
        res.write('{"half":');
        setTimeout(() => res.destroy(), 5);
      } else json(res, 200, { ok: 1 });
    });
    const { t } = transport();
    expect((await t.send({ method: 'GET', url: server.url })).status).toBe(200);
    const post = await t
      .send({ method: 'POST', url: server.url, body: '' })
      .catch((e: unknown) => e);
    expect(post).toBeInstanceOf(NetworkError);
    expect((post as NetworkError).connect).toBe(false);
    expect(server.seen.filter((s) => s.method === 'POST')).toHaveLength(1);
  });

  it('times out a slow attempt and retries the GET', async () => {
    server = await localServer((_req, res, i) => {
      if (i === 0) setTimeout(() => json(res, 200, { slow: true }), 400);
      else json(res, 200, { fast: true });
    });
    const { t, retries } = transport(undefined, { attemptTimeoutMs: 100 });
    const res = await t.send({ method: 'GET', url: server.url });
    expect(JSON.parse(res.text)).toEqual({ fast: true });
    expect(retries[0]).toMatch(/within 100 ms/);
  });

  it('gives up at the deadline instead of sleeping past it', async () => {
    server = await localServer((_req, res) => json(res, 503, {}, { 'retry-after': '30' }));
    const fc = fakeClock();
    const { t } = transport(fc.clock, { remainingTimeMs: () => 10_000, reserveMs: 0 });
    const res = await t.send({ method: 'GET', url: server.url });
    expect(res.status).toBe(503);
    expect(server.seen).toHaveLength(1);
    expect(fc.sleeps).toEqual([]);
  });

  it('applies the earlier of the call deadline and the remaining time', async () => {
    server = await localServer((_req, res) => json(res, 503, {}, { 'retry-after': '5' }));
    const fc = fakeClock();
    const { t } = transport(fc.clock, { remainingTimeMs: () => 3_000, reserveMs: 0 });
    const later = { deadline: fc.clock.now() + 600_000 };
    expect(t.deadlineFor(later)).toBe(fc.clock.now() + 3_000);
    const res = await t.send({ method: 'GET', url: server.url, deadline: later });
    expect(res.status).toBe(503);
    expect(fc.sleeps).toEqual([]);
    const earlier = { deadline: fc.clock.now() + 1_000 };
    expect(t.deadlineFor(earlier)).toBe(fc.clock.now() + 1_000);
    expect(t.deadlineFor()).toBe(fc.clock.now() + 3_000);
  });

  it('cuts an attempt at the deadline and raises TimeoutError(deadline)', async () => {
    server = await localServer((_req, res) => {
      setTimeout(() => json(res, 200, {}), 500);
    });
    const { t } = transport(systemClock, { deadline: Date.now() + 150 });
    const error = await t.send({ method: 'GET', url: server.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).kind).toBe('deadline');
    const late = new Transport({ userAgent: 'x', deadline: Date.now() - 1 });
    await expect(late.send({ method: 'GET', url: server.url })).rejects.toThrow(/deadline passed/);
  });

  it('caps the total wait between attempts', async () => {
    server = await localServer((_req, res) => json(res, 429, {}, { 'retry-after': '3' }));
    const fc = fakeClock();
    const { t } = transport(fc.clock, { retry: { maxAttempts: 10, maxTotalWaitMs: 7000 } });
    await t.send({ method: 'GET', url: server.url });
    expect(fc.sleeps).toEqual([3000, 3000]);
  });

  it('retries a GET whose 2xx body does not decode', async () => {
    server = await localServer((_req, res, i) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(i === 0 ? '{"cut' : '{"whole":true}');
    });
    const { t } = transport();
    const res = await t.send({ method: 'GET', url: server.url, decode: (s) => JSON.parse(s) });
    expect(res.decoded).toEqual({ whole: true });
  });
});

describe('Function: parseRetryAfter / backoffDelay', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-06-15T12:00:00Z');
    expect(parseRetryAfter('5', now)).toBe(5000);
    expect(parseRetryAfter('Mon, 15 Jun 2026 12:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Mon, 15 Jun 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('keeps jitter under the doubling ceiling', () => {
    for (let n = 1; n < 12; n++) {
      const ceiling = Math.min(DEFAULT_RETRY.maxDelayMs, DEFAULT_RETRY.baseDelayMs * 2 ** (n - 1));
      expect(backoffDelay(n, DEFAULT_RETRY, () => 0.999999)).toBeLessThan(ceiling);
      expect(backoffDelay(n, DEFAULT_RETRY, () => 0)).toBe(0);
    }
  });
});
