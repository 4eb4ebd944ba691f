import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, HttpError, RateLimitError } from '../../lib/index.js';
import { startWorld, virtualClock, type World } from './support/world.js';

// The client against the emulator rendering errors as the real service does, over HTTP.
let w: World;
beforeAll(async () => {
  w = await startWorld({ errorStyle: 'envelope' });
});
afterAll(() => w.emu.close());

describe('SkywatchClient: errors in the real service envelope', () => {
  it('makes the envelope the message and keeps the requestId', async () => {
    const client = w.client();
    const error = await client
      .gsmUsageReport(w.gsm.key, { effectiveDate: '2001-01-01' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    const http = error as HttpError;
    expect(http.status).toBeGreaterThanOrEqual(400);
    expect(http.message).not.toMatch(/no details/);
    expect(http.message).toContain(String(http.problem?.detail));
    expect(http.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(http.toJSON()).toMatchObject({ requestId: http.requestId });
  });

  it('reads the OAuth code of a 401 envelope into an AuthError', async () => {
    const client = w.client({ auth: 'not-a-token' });
    const error = await client.gsmUsageReport(w.gsm.key).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: 'invalid_token', status: 401 });
    expect((error as AuthError).details.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives a clear error for an HTML 503 page from a proxy', async () => {
    w.emu.setFaults([{ operation: 'report.gsm', kind: 'status', status: 503, body: 'html' }]);
    try {
      const error = await w
        .client({ retry: { maxAttempts: 2 } })
        .gsmUsageReport(w.gsm.key)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as Error).message).toMatch(/HTTP 503: an HTML page .*proxy/);
    } finally {
      w.emu.setFaults([]);
    }
  });

  it('backs off with jitter from a longer ceiling after a 429 without Retry-After', async () => {
    w.emu.setFaults([{ operation: 'report.gsm', kind: 'status', status: 429, count: 2 }]);
    const { clock, sleeps } = virtualClock(w.emu);
    const delays: number[] = [];
    const client = w.client({ clock, hooks: { onRetry: (e) => delays.push(e.delayMs) } });
    const report = await client.gsmUsageReport(w.gsm.key);
    expect(report.ReportInfo).toBeDefined();
    // virtualClock draws 0.5: half of the 1 s then 2 s ceilings, not the 200 ms of a reset.
    expect(delays).toEqual([500, 1000]);
    expect(sleeps).toEqual([500, 1000]);
  });

  it('raises RateLimitError without retryAfter once attempts run out', async () => {
    w.emu.setFaults([{ operation: 'report.gsm', kind: 'status', status: 429 }]);
    try {
      const error = await w
        .client({ retry: { maxAttempts: 2 } })
        .gsmUsageReport(w.gsm.key)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).retryAfter).toBeUndefined();
      expect((error as RateLimitError).requestId).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      w.emu.setFaults([]);
    }
  });
});
