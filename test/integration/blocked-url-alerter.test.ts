import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Product, startProduct } from '../support/product.js';

let product: Product;
beforeAll(async () => {
  product = await startProduct();
  await product.run('token-refresher');
});
afterAll(async () => product?.close());

describe('Function: blocked-url-alerter', () => {
  it('alerts a spiking site once per day and leaves flat sites alone', async () => {
    const sites = product.emulator.info().gsms[0]?.sites ?? [];
    const spiking = sites[1];
    const yesterday = new Date(product.emulator.now().getTime() - 86_400_000)
      .toISOString()
      .slice(0, 10);
    product.emulator.addBlockedUrls(spiking?.id ?? '', yesterday, 4000);
    const out = await product.run<{
      outcomes: { sites: number; spikes: number; alerts: number }[];
    }>('blocked-url-alerter');
    expect(out.outcomes[0]).toMatchObject({ sites: sites.length, spikes: 1, alerts: 1 });
    await product.run('blocked-url-alerter');
    const alerts = await product.alerts();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      kind: 'blocked-url-spike',
      severity: 'high',
      site: spiking?.key,
      details: { day: yesterday, siteId: spiking?.id },
    });
    const details = alerts[0]?.details as { count: number } | undefined;
    expect(details?.count).toBeGreaterThan(4000);
  });

  it('does not alert a site whose spike is today (not yet a full day)', async () => {
    const sites = product.emulator.info().gsms[0]?.sites ?? [];
    const today = product.emulator.now().toISOString().slice(0, 10);
    product.emulator.addBlockedUrls(sites[2]?.id ?? '', today, 50_000);
    await product.run('blocked-url-alerter');
    expect(await product.alerts()).toEqual([]);
  });

  it('fails the run, without alerting, when a site cannot be checked', async () => {
    product.emulator.setFaults([
      { operation: 'blockedUrls', kind: 'status', status: 503, count: 100, retryAfterSeconds: 0 },
    ]);
    await expect(product.run('blocked-url-alerter')).rejects.toThrow(/could not be checked/);
    product.emulator.setFaults([]);
    expect(await product.alerts()).toEqual([]);
  });
});
