import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AdaptiveLimiter,
  type AgentStatus,
  type LimitChangeReason,
  type Page,
  systemClock,
} from '../../lib/index.js';
import { startWorld, type World } from './support/world.js';

let w: World;
beforeEach(async () => {
  // Many small sites, and 429s without Retry-After, as the real service sends them.
  w = await startWorld({
    gsmCount: 2,
    sitesPerGsm: 12,
    endpointsPerGsm: 240,
    errorStyle: 'envelope',
  });
});
afterEach(() => w.emu.close());

describe('AdaptiveLimiter against the emulator', () => {
  it('shrinks while the service throttles, grows back after, and every page arrives', async () => {
    const changes: [number, LimitChangeReason][] = [];
    const limiter = new AdaptiveLimiter({
      initial: 8,
      min: 1,
      max: 16,
      // The real clock on both sides: the limiter dates attempts from the client's durations.
      now: () => systemClock.now(),
      // Throttling is under test; a shared test machine's latency jitter is not.
      latencyFactor: 20,
      onChange: (limit, reason) => changes.push([limit, reason]),
    });
    const client = w.client({
      clock: systemClock,
      retry: { maxAttempts: 10, baseDelayMs: 10, rateLimitBaseDelayMs: 40, maxDelayMs: 200 },
    });
    const detach = limiter.attach(client);
    w.emu.setFaults([{ operation: 'status.site', kind: 'status', status: 429, count: 40 }]);

    const sites = w.info.gsms.flatMap((g) => g.sites);
    let inFlight = 0;
    let mostInFlight = 0;
    const fetchPage = async (
      key: string,
      continuation: string | null,
    ): Promise<Page<AgentStatus>> => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      try {
        return await client.siteAgentStatus(key, { batchSize: 2, continuation }).firstPage();
      } finally {
        inFlight--;
      }
    };
    const walk = async (key: string) => {
      let page: Page<AgentStatus> = await limiter.run(() => fetchPage(key, null));
      let seen = page.entries.length;
      for (let token = page.continuationToken; token; token = page.continuationToken) {
        const from = token;
        page = await limiter.run(() => fetchPage(key, from));
        seen += page.entries.length;
      }
      return seen;
    };
    const seen = await Promise.all(sites.map((s) => walk(s.key)));
    detach();

    expect(seen).toEqual(sites.map((s) => s.endpointCount));
    expect(w.emu.stats().faultsInjected).toBe(40);
    const stats = limiter.stats();
    expect(stats.throttles).toBe(40);
    expect(stats.lowestLimit).toBeLessThan(8);
    expect(stats.decreases).toBeGreaterThan(0);
    // Grew back once the throttling stopped.
    const lastCut = changes.findLastIndex(([, reason]) => reason !== 'increase');
    expect(changes[lastCut]?.[1]).toBe('throttle');
    const after = changes.slice(lastCut + 1);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every(([, reason]) => reason === 'increase')).toBe(true);
    expect(stats.limit).toBeGreaterThanOrEqual(8);
    expect(mostInFlight).toBeLessThanOrEqual(16);
    expect(stats).toMatchObject({ inFlight: 0, waiting: 0 });
  }, 10_000);
});
