import { beforeAll, describe, expect, it, vi } from 'vitest';
import { webhookHeaders } from '../../lib/webhooks/index.js';
import type { FunctionName } from '../../scripts/local/functions.js';
import { type Product, type ReceivedHealthAlert, startProduct } from '../support/product.js';
import { archivedRecords, whereSame } from './support/archived-records.js';
import { captureOutput } from './support/capture.js';

/**
 * A simulated day of every schedule against the real-service profile of the emulator: the token
 * refresher and the infection alerter every 5 minutes (288 ticks), the blocked-URL alerter
 * hourly, the report fetcher at 06:00 on both days, one webhook delivery. The real profile
 * writes what the real service writes (mixed instant renderings, nulls and blanks in a share of
 * entries, undocumented fields, gzip-looking continuation tokens, 299-second tokens).
 */
const START = '2026-03-01T06:00:00Z';
const TICKS = 288;
const SEED = 9;

interface Counts {
  invocations: number;
  failures: string[];
}

let contractArchive: Map<string, unknown[]>;
let bootstrapArchive: Map<string, unknown[]>;
let finalArchive: Map<string, unknown[]>;
let invocations: Record<string, Counts>;
let injected: string[];
let alerts: Record<string, unknown>[];
let healthAlerts: ReceivedHealthAlert[];
let spike: string;
let webhookStatus: number;
let refreshGrants: number;
let logLines: string[];

async function invoke(product: Product, name: FunctionName, event: unknown = {}) {
  const counts = invocations[name] ?? { invocations: 0, failures: [] };
  invocations[name] = counts;
  counts.invocations++;
  try {
    return await product.run(name, event);
  } catch (error) {
    counts.failures.push((error as Error).message);
    return undefined;
  }
}

async function day(product: Product): Promise<void> {
  const { emulator } = product;
  const sites = emulator.info().gsms[0]?.sites ?? [];
  const candidates = sites.flatMap((s) => emulator.machineIds(s.key, 5));
  for (const name of ['token-refresher', 'report-fetcher', 'infection-alerter'] as const)
    await invoke(product, name);
  await invoke(product, 'blocked-url-alerter');
  bootstrapArchive = await archivedRecords(product);
  // What the data starts with (deactivated agents, licences): the day's alerts come after.
  await product.healthAlerts();
  for (let t = 1; t <= TICKS; t++) {
    emulator.advanceClock(300);
    // Midnight: a spike on the day that just ended, for the next hourly run to find.
    if (t === 216) {
      const site = sites[1];
      emulator.addBlockedUrls(site?.id ?? '', '2026-03-01', 6000);
      spike = `${site?.key}/2026-03-01`;
    }
    if (t % 24 === 7 && candidates.length > 0) {
      const id = candidates.splice(t % candidates.length, 1)[0] ?? '';
      emulator.endpointAction(id, 'infect', `Trojan|Win32|Tick${t}`);
      injected.push(id);
    }
    await invoke(product, 'token-refresher');
    await invoke(product, 'infection-alerter');
    if (t % 12 === 0) await invoke(product, 'blocked-url-alerter');
    if (t === 100) webhookStatus = await deliverWebhook(product);
    if (t === TICKS) await invoke(product, 'report-fetcher');
  }
}

async function deliverWebhook(product: Product): Promise<number> {
  const cart = product.emulator.info().carts.find((c) => c.type === 'standard');
  const body = JSON.stringify({
    vendorOrderCode: cart?.vendorOrderCode,
    shipping: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      address1: '12 St James Square',
      city: 'London',
      postalCode: 'SW1Y 4JH',
      country: 'GB',
      email: 'ada@example.com',
    },
  });
  const res = (await invoke(product, 'cart-customer-webhook', {
    requestContext: { http: { method: 'POST' } },
    headers: {
      'content-type': 'application/json',
      ...webhookHeaders([product.webhookSecret], {
        id: 'real-day-1',
        timestamp: Math.floor(Date.now() / 1000),
        body,
      }),
    },
    body,
    isBase64Encoded: false,
  })) as { statusCode: number } | undefined;
  return res?.statusCode ?? 0;
}

beforeAll(async () => {
  invocations = {};
  injected = [];
  logLines = [];
  // The contract profile's archive of the same dataset at the same instant, for comparison.
  vi.resetModules();
  const contract = await startProduct({ seed: SEED, now: START });
  try {
    await contract.run('token-refresher');
    await contract.run('report-fetcher');
    contractArchive = await archivedRecords(contract);
  } finally {
    await contract.close();
  }
  // The handlers read their environment when first imported: a fresh module registry.
  vi.resetModules();
  const product = await startProduct(
    { seed: SEED, now: START, profile: 'real' },
    { POWERTOOLS_LOG_LEVEL: 'WARN' },
  );
  try {
    await captureOutput(() => day(product), logLines);
    finalArchive = await archivedRecords(product);
    alerts = await product.alerts();
    healthAlerts = await product.healthAlerts();
    refreshGrants = product.emulator.stats().tokenGrants.refresh_token;
  } finally {
    await product.close();
  }
}, 600_000);

describe('A day of every schedule against the real-service profile', () => {
  it('ran every schedule without one failed invocation', () => {
    expect(invocations['token-refresher']?.invocations).toBe(TICKS + 1);
    expect(invocations['infection-alerter']?.invocations).toBe(TICKS + 1);
    expect(invocations['blocked-url-alerter']?.invocations).toBe(TICKS / 12 + 1);
    expect(invocations['report-fetcher']?.invocations).toBe(2);
    const failures = Object.entries(invocations).flatMap(([n, c]) =>
      c.failures.map((f) => `${n}: ${f}`),
    );
    expect(failures).toEqual([]);
  });

  it('rotated the token 288 times through the refresh grant', () => {
    expect(refreshGrants).toBe(TICKS);
  });

  it('alerted every injected infection once and the blocked-URL spike', () => {
    expect(injected.length).toBeGreaterThanOrEqual(10);
    // One trigger each, `infected`: the agent's AttentionRequired raises no second one.
    const triggered = healthAlerts
      .filter((a) => a.action === 'trigger' && injected.includes(a.machineId ?? ''))
      .map((a) => a.id);
    expect(triggered.sort()).toEqual(injected.map((id) => `infected/${id}`).sort());
    expect(healthAlerts.filter((a) => a.kind === 'infected' && a.action !== 'trigger')).toEqual([]);
    const spikes = alerts
      .filter((a) => a.kind === 'blocked-url-spike')
      .map((a) => `${a.site}/${(a.details as { day: string }).day}`);
    expect(spikes).toEqual([spike]);
    // Instants in alerts are normalised, whatever rendering the service used.
    for (const a of [...alerts, ...healthAlerts])
      expect(a.occurredAt).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/);
  });

  it('answered the webhook delivery', () => {
    expect(webhookStatus).toBe(200);
  });

  it('archived both days, and the same entries as the contract profile where the data is the same', () => {
    const days = new Set([...finalArchive.keys()].map((k) => /date=([\d-]+)/.exec(k)?.[1]));
    expect(days).toContain('2026-03-01');
    expect(days).toContain('2026-03-02');
    expect([...bootstrapArchive.keys()]).toEqual([...contractArchive.keys()]);
    let compared = 0;
    for (const [key, contract] of contractArchive) {
      const real = bootstrapArchive.get(key) ?? [];
      expect(real.length, key).toBe(contract.length);
      const [ours, theirs] = whereSame(real, contract);
      expect(ours, key).toEqual(theirs);
      compared += contract.length;
    }
    // What the reader left out is archived all the same: the service's own nulls, and its
    // undocumented fields in reports as in snapshots.
    const nulls = (v: unknown) => JSON.stringify(v).split(':null').length;
    const snapshot = [...contractArchive.keys()].find((k) => k.includes('agent-status/')) ?? '';
    const keptNulls = (bootstrapArchive.get(snapshot) ?? []).filter(
      (r, i) => nulls(r) > nulls(contractArchive.get(snapshot)?.[i]),
    );
    expect(keptNulls.length).toBeGreaterThan(0);
    const siteRows = [...bootstrapArchive]
      .filter(([k]) => k.includes('site-usage/'))
      .flatMap(([, rows]) => rows as { Site: { PolicyName?: string } }[]);
    expect(siteRows.length).toBeGreaterThan(0);
    expect(siteRows.every((r) => r.Site.PolicyName === 'Recommended Defaults')).toBe(true);
    // Both snapshots (150 endpoints) and every report of the day.
    expect(compared).toBeGreaterThanOrEqual(300);
  });

  it('counted the surprises in sampled log lines naming path and rule, never a value', () => {
    const lines = logLines
      .join('')
      .split('\n')
      .filter((l) => l.includes('"surprise"'));
    expect(lines.length).toBeGreaterThan(0);
    const rules = new Set(
      lines.map((l) => (JSON.parse(l) as { surprise: { rule: string } }).surprise.rule),
    );
    expect(rules).toContain('unknown-field');
    expect(rules).toContain('null');
    for (const line of lines) expect(line).not.toContain('Recommended Defaults');
    // Sampled: a handful per path and rule and container, not one per entry.
    expect(lines.length).toBeLessThan(400);
  });
});
