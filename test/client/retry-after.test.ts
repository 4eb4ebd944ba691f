import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ClientEvents,
  HttpError,
  RateLimitError,
  SkywatchClient,
  type SkywatchClientOptions,
} from '../../lib/index.js';
import {
  closeLocalServers,
  fakeClock,
  json,
  type LocalServer,
  localServer,
} from '../lib/support/local-server.js';
import { CUSTOMER } from './support/world.js';

// A real HTTP server (as ky's tests use) answering the client's requests; the client's clock is
// a fake one whose sleeps return at once, so waits of seconds are recorded, not spent.

let server: LocalServer | undefined;
afterEach(closeLocalServers);

const KEY = 'AAAA-BBBB-CCCC-DDDD-EEEE';
const REPORT = {
  ReportInfo: { ReportType: 'ActiveEndpoints', EffectiveDate: '2026-06-13T00:00:00Z', GSMKey: KEY },
  GSM: {
    GSMConsoleName: 'Console',
    LicenseType: 'Paid',
    ExpiryDate: '2027-01-01T00:00:00Z',
    TotalSitesWithoutTrial: 1,
    TotalTrialSites: 0,
    TotalEndpointsWithoutTrial: 5,
    TotalTrialEndpoints: 0,
  },
};
// HTTP dates have whole seconds; the server sends one that far ahead of the shared clock.
const SECOND = 1_000;

function problem(res: ServerResponse, status: number, headers: Record<string, string> = {}) {
  json(res, status, { status, title: 'try later', code: `http_${status}` }, headers);
}

function setup(extra: Partial<SkywatchClientOptions> = {}) {
  const fc = fakeClock();
  const retries: ClientEvents['retry'][] = [];
  const client = new SkywatchClient({
    baseUrl: `${server?.url}/service`,
    auth: 'static-access-token-for-retry-tests',
    clock: fc.clock,
    hooks: { onRetry: (e) => retries.push(e) },
    ...extra,
  });
  /** An HTTP date `ms` after the client's now (the server's clock agrees with it). */
  const dateIn = (ms: number) => new Date(fc.clock.now() + ms).toUTCString();
  return { client, fc, retries, dateIn };
}

describe('SkywatchClient: Retry-After as an HTTP date (real HTTP server)', () => {
  it('waits until the date a 503 names, then retries the GET', async () => {
    // Prepare
    let at = '';
    server = await localServer((_req, res, i) => {
      if (i === 0) problem(res, 503, { 'retry-after': at });
      else json(res, 200, REPORT);
    });
    const { client, fc, retries, dateIn } = setup();
    at = dateIn(7.5 * SECOND);
    // Act
    const report = await client.gsmUsageReport(KEY);
    // Assess
    expect(report.GSM?.GSMConsoleName).toBe('Console');
    expect(server.seen).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]?.reason).toBe('HTTP 503');
    expect(Math.abs((retries[0]?.delayMs ?? 0) - 7.5 * SECOND)).toBeLessThanOrEqual(SECOND);
    expect(fc.sleeps).toEqual([retries[0]?.delayMs]);
  });

  it('fails fast with HttpError when the date lies past the deadline', async () => {
    let at = '';
    server = await localServer((_req, res) => problem(res, 503, { 'retry-after': at }));
    const { client, fc, retries, dateIn } = setup({ remainingTimeMs: () => 10_000, reserveMs: 0 });
    at = dateIn(60 * SECOND);
    const error = await client.gsmUsageReport(KEY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 503, problem: { code: 'http_503' } });
    expect(server.seen).toHaveLength(1);
    expect(retries).toEqual([]);
    expect(fc.sleeps).toEqual([]);
  });

  it('fails fast with RateLimitError when the date lies past maxTotalWaitMs', async () => {
    let at = '';
    server = await localServer((_req, res) => problem(res, 429, { 'retry-after': at }));
    const { client, fc, retries, dateIn } = setup({ retry: { maxTotalWaitMs: 20_000 } });
    at = dateIn(45.5 * SECOND);
    const error = await client.gsmUsageReport(KEY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    const retryAfter = (error as RateLimitError).retryAfter ?? 0;
    expect(Math.abs(retryAfter - 45.5 * SECOND)).toBeLessThanOrEqual(SECOND);
    expect(server.seen).toHaveLength(1);
    expect(retries).toEqual([]);
    expect(fc.sleeps).toEqual([]);
  });
});

describe('SkywatchClient: 408 Request Timeout (real HTTP server)', () => {
  it('retries a GET answered 408 with jittered backoff', async () => {
    server = await localServer((_req, res, i) => {
      if (i < 2) problem(res, 408);
      else json(res, 200, REPORT);
    });
    const { client, fc, retries } = setup({ retry: { baseDelayMs: 200 } });
    await client.gsmUsageReport(KEY);
    expect(server.seen).toHaveLength(3);
    expect(retries.map((r) => r.reason)).toEqual(['HTTP 408', 'HTTP 408']);
    // Full jitter with random() = 0.5: half of 200, then half of 400.
    expect(fc.sleeps).toEqual([100, 200]);
  });

  it('raises HttpError(408) once attempts run out', async () => {
    server = await localServer((_req, res) => problem(res, 408));
    const { client, retries } = setup({ retry: { maxAttempts: 3 } });
    const error = await client.gsmUsageReport(KEY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(408);
    expect(server.seen).toHaveLength(3);
    expect(retries).toHaveLength(2);
  });

  it('does not resend a POST answered 408: the server had the request', async () => {
    server = await localServer((_req, res) => problem(res, 408, { 'retry-after': '1' }));
    const { client, retries } = setup();
    const error = await client
      .addCartCustomers('SO-408', { Shipping: CUSTOMER })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'HttpError', status: 408, method: 'POST' });
    expect(server.seen).toHaveLength(1);
    expect(retries).toEqual([]);
  });
});
