import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Product, startProduct } from '../support/product.js';

interface Built {
  day: string;
  seatMonth: string | null;
  reports: {
    pageKey: string;
    pageUrl: string;
    seatCsvKey?: string;
    sites: number;
    complete: boolean;
  }[];
}

let product: Product;
beforeAll(async () => {
  product = await startProduct();
  await product.run('token-refresher');
  await product.run('report-fetcher');
}, 60_000);
afterAll(async () => product?.close());

const reportDay = () =>
  new Date(product.emulator.now().getTime() - 2 * 86_400_000).toISOString().slice(0, 10);

describe('Function: report-builder', () => {
  it("writes the newest report day's page under pages/ and returns a link that opens it", async () => {
    const out = await product.run<Built>('report-builder');
    expect(out.day).toBe(reportDay());
    const [built] = out.reports;
    expect(built?.pageKey).toBe(`pages/daily/gsm=${product.gsm}/date=${reportDay()}/report.html`);
    expect(built?.sites).toBe(product.emulator.info().gsms[0]?.sites.length);
    expect(built?.complete).toBe(true);
    const page = await fetch(built?.pageUrl ?? '');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<svg');
  });

  it('writes the seat CSV of a month asked for', async () => {
    const month = reportDay().slice(0, 7);
    const out = await product.run<Built>('report-builder', { month });
    const key = out.reports[0]?.seatCsvKey;
    expect(key).toBe(`pages/seats/gsm=${product.gsm}/month=${month}/seats-${month}.csv`);
    expect((await product.objects('pages/seats/')).map((o) => o.key)).toEqual([key]);
  });

  it('refuses a malformed event, and a day with no archive, with the reason', async () => {
    await expect(product.run('report-builder', { date: '14/06/2026' })).rejects.toThrow(
      /date.*YYYY-MM-DD/,
    );
    await expect(product.run('report-builder', { date: '2020-01-01' })).rejects.toThrow(
      /No archive manifest .* 2020-01-01/,
    );
  });
});
