import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentStatus } from '../../lib/index.js';
import { startWorld, type World } from './support/world.js';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(() => w.emu.close());

describe('Paging over HTTP (4.1–4.4)', () => {
  it('sees every endpoint once while endpoints enrol and change between pages', async () => {
    const client = w.client();
    const seen: string[] = [];
    let page = 0;
    for await (const p of client
      .gsmAgentStatus(w.gsm.key, { batchSize: 25, returnedInfo: ['BasicInfo'] })
      .pages()) {
      seen.push(...p.entries.map((e) => e.MachineID ?? ''));
      page++;
      if (page === 1) {
        w.emu.enrol(w.site.key, 7);
        w.emu.endpointAction(p.entries[0]?.MachineID ?? '', 'infect', 'Trojan|Win32|X');
      }
    }
    expect(seen).toHaveLength(w.gsm.endpointCount + 7);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('renews an expired token in the middle of a walk and replays after a revocation', async () => {
    const renewals: string[] = [];
    const client = w.client({
      hooks: { onTokenRenewal: (e) => renewals.push(`${e.grant}:${e.reason}`) },
    });
    let count = 0;
    let page = 0;
    for await (const p of client.gsmDnspStatus(w.gsm.key, { batchSize: 5 }).pages()) {
      count += p.entries.length;
      page++;
      if (page === 2) w.emu.advanceClock(400); // past the 300 s access-token lifetime
      if (page === 4) w.emu.revokeTokens(); // refresh tokens die too: falls back to the password
    }
    const all = [];
    for await (const e of w.client().gsmDnspStatus(w.gsm.key, { batchSize: 1000 })) all.push(e);
    expect(count).toBe(all.length);
    expect(renewals[0]).toBe('password:initial');
    expect(renewals).toContain('refresh_token:expiring');
    expect(renewals).toContain('refresh_token:invalidated');
    expect(renewals.at(-1)).toBe('password:invalidated');
    expect(w.emu.stats().tokenGrants.refresh_token).toBeGreaterThanOrEqual(1);
  });

  it('resumes from a saved continuation token in a new client, with a page cap', async () => {
    const first = w.client().siteAgentStatus(w.site.key, { batchSize: 10, maxPages: 2 });
    const head: AgentStatus[] = [];
    let token: string | null = null;
    for await (const p of first.pages()) {
      head.push(...p.entries);
      token = p.continuationToken;
    }
    expect(head).toHaveLength(20);
    const tail: AgentStatus[] = [];
    for await (const e of w
      .client()
      .siteAgentStatus(w.site.key, { batchSize: 10, continuation: token ?? '' }))
      tail.push(e);
    expect(head.length + tail.length).toBe(w.site.endpointCount);
    expect(new Set([...head, ...tail].map((e) => e.MachineID)).size).toBe(w.site.endpointCount);
  });

  it('walks a GSM in capped runs, each resuming in a new client, every entry once', async () => {
    // The "capped run" example of docs/client.md, run until the walk reaches the end.
    let cursor: string | null = null;
    const seen: string[] = [];
    let runs = 0;
    for (;;) {
      runs++;
      const walk = w.client().gsmAgentStatus(w.gsm.key, {
        batchSize: 25,
        returnedInfo: ['BasicInfo'],
        prefetch: true,
        maxPages: 2,
        continuation: cursor,
      });
      for await (const endpoint of walk) seen.push(endpoint.MachineID ?? '');
      cursor = walk.resumeToken;
      if (walk.reachedEnd) break;
      expect(cursor).not.toBeNull();
      expect(seen).toHaveLength(runs * 50);
    }
    expect(cursor).toBeNull();
    expect(runs).toBe(Math.ceil(w.gsm.endpointCount / 50));
    expect(seen).toHaveLength(w.gsm.endpointCount);
    expect(new Set(seen).size).toBe(w.gsm.endpointCount);
  });

  it("answers each page's entries as the JSON texts the service sent", async () => {
    const walk = w.client().gsmAgentStatus(w.gsm.key, { batchSize: 40 });
    let pages = 0;
    for await (const page of walk.pages()) {
      const texts = page.entryTexts();
      expect(texts).toHaveLength(page.entries.length);
      expect(texts.map((t) => JSON.parse(t))).toEqual(page.entries);
      // The emulator writes compact JSON in schema order, so its text is what stringify gives.
      expect(texts[0]).toBe(JSON.stringify(page.entries[0]));
      expect(page.entryTexts()).toBe(texts);
      pages++;
    }
    expect(pages).toBe(Math.ceil(w.gsm.endpointCount / 40));
  });

  it('prefetches the next page and stops fetching when the loop breaks', async () => {
    const client = w.client();
    await client.gsmUsageReport(w.gsm.key);
    w.emu.resetStats();
    for await (const p of client
      .gsmAgentStatus(w.gsm.key, { batchSize: 10, prefetch: true })
      .pages()) {
      expect(p.entries).toHaveLength(10);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(w.emu.stats().byOperation['status.gsm']).toBe(2);
  });

  it('keeps memory flat over a large GSM: pages already walked are garbage', async () => {
    await w.emu.close();
    w = await startWorld({ endpointsPerGsm: 20_000, gsmCount: 1 });
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const client = w.client();
    let n = 0;
    let firstPage: WeakRef<object> | undefined;
    gc();
    const base = process.memoryUsage().heapUsed;
    let peak = 0;
    for await (const p of client
      .gsmAgentStatus(w.gsm.key, { batchSize: 1000, prefetch: true })
      .pages()) {
      firstPage ??= new WeakRef(p.entries);
      n += p.entries.length;
      if (n % 5000 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - base);
      }
    }
    gc();
    expect(n).toBe(20_000);
    expect(firstPage?.deref()).toBeUndefined();
    expect(peak).toBeLessThan(25 * 1024 * 1024);
  });
});
