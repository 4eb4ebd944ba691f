import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Product, startProduct } from '../support/product.js';

interface Built {
  day: string;
  seatMonth: string | null;
  reports: {
    pageKey: string;
    pageUrl: string;
    latest: boolean;
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

  it("keeps the newest day's page at the GSM's latest key, never an older day's", async () => {
    const out = await product.run<Built>('report-builder');
    const latestKey = `pages/daily/gsm=${product.gsm}/latest/report.html`;
    const read = async (key: string) => {
      const got = await product.aws.clients.s3.send(
        new GetObjectCommand({ Bucket: product.res.bucket, Key: key }),
      );
      return { body: await got.Body?.transformToString(), day: got.Metadata?.['report-day'] };
    };
    expect(out.reports[0]?.latest).toBe(true);
    const latest = await read(latestKey);
    expect(latest.day).toBe(reportDay());
    expect(latest.body).toBe((await read(out.reports[0]?.pageKey ?? '')).body);

    // A newer day's page is already there: rebuilding this (older) day leaves it alone.
    const newerDay = new Date(Date.parse(reportDay()) + 86_400_000).toISOString().slice(0, 10);
    await product.aws.clients.s3.send(
      new PutObjectCommand({
        Bucket: product.res.bucket,
        Key: latestKey,
        Body: '<p>newer</p>',
        Metadata: { 'report-day': newerDay },
      }),
    );
    const again = await product.run<Built>('report-builder', { date: reportDay() });
    expect(again.reports[0]?.latest).toBe(false);
    expect(await read(latestKey)).toEqual({ body: '<p>newer</p>', day: newerDay });
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
