import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPageLink } from '../../lib/links/page-link-check.js';
import { dailyPageKey, latestPageKey } from '../../lib/reports/page-keys.js';
import {
  type LocalPageLinks,
  pageLinkEnv,
  provisionPageLinks,
} from '../../scripts/local/page-links.js';
import { type Product, startProduct } from '../support/product.js';

/**
 * The report site's links end to end: the key made as the stack makes it, the environment the
 * stack gives the two functions that sign, and what their results and the digest carry.
 */
let product: Product;
let links: LocalPageLinks;
beforeAll(async () => {
  product = await startProduct();
  links = await provisionPageLinks(product.aws.clients, product.res.bucket);
  // Handlers read their environment when first loaded, which is at their first run below.
  Object.assign(process.env, pageLinkEnv(links, 3));
  await product.run('token-refresher');
  await product.run('report-fetcher');
}, 60_000);
afterAll(async () => product?.close());

const DAY_MS = 86_400_000;

interface Built {
  reports: { pageKey: string; pageUrl: string; latestUrl?: string; linkExpiresAt?: string }[];
}

describe('Report links: the report builder and the digest', () => {
  it("returns signed links to the day's page and the GSM's latest page, for the set days", async () => {
    const out = await product.run<Built>('report-builder');
    const [built] = out.reports;
    const day = new Date(product.emulator.now().getTime() - 2 * DAY_MS).toISOString().slice(0, 10);
    expect(built?.pageKey).toBe(dailyPageKey(product.gsm, day));
    expect(verifyPageLink(built?.pageUrl ?? '', links).key).toBe(built?.pageKey);
    expect(verifyPageLink(built?.latestUrl ?? '', links).key).toBe(latestPageKey(product.gsm));
    const days = (Date.parse(built?.linkExpiresAt ?? '') - Date.now()) / DAY_MS;
    expect(Math.round(days)).toBe(3);
    expect(built?.pageUrl.startsWith(`${links.origin}/daily/`)).toBe(true);
  });

  it("sends the daily digest with a signed link to the GSM's latest page", async () => {
    await product.run('infection-alerter');
    const [digest] = (await product.digests()) as { report: { url?: string; s3Uri: string } }[];
    expect(verifyPageLink(digest?.report.url ?? '', links).key).toBe(latestPageKey(product.gsm));
    expect(digest?.report.s3Uri).toBe(`s3://${product.res.bucket}/${latestPageKey(product.gsm)}`);
  });
});
