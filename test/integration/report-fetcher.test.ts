import { DeleteObjectCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Product, startProduct } from '../support/product.js';

let product: Product;
beforeAll(async () => {
  // One attempt a call and two a task: a site that keeps failing is recorded quickly.
  product = await startProduct({}, { TASK_MAX_ATTEMPTS: '2', SKYWATCH_MAX_ATTEMPTS: '1' });
  await product.run('token-refresher');
});
afterAll(async () => product?.close());

const day = (offset: number) => product.day(offset);

const lines = (key: string) => product.lines(key);

describe('Function: report-fetcher', () => {
  it('archives the newest reports of every type, every site, and full status snapshots', async () => {
    const out = await product.run<{ days: { date: string; complete: boolean }[] }>(
      'report-fetcher',
    );
    const reportDay = day(-2);
    // The newest report day first, then the three days before it, which have no manifest yet.
    expect(out.days.map((m) => m.date)).toEqual([reportDay, day(-5), day(-4), day(-3)]);
    expect(out.days.every((m) => m.complete)).toBe(true);
    const info = product.emulator.info().gsms[0];
    const keys = (await product.objects('reports/')).map((o) => o.key);
    expect(
      keys.filter((k) => k.startsWith(`reports/gsm-usage/gsm=${product.gsm}/date=${reportDay}/`)),
    ).toHaveLength(3);
    expect(
      keys.filter((k) => k.startsWith(`reports/dnsp-usage/gsm=${product.gsm}/date=${reportDay}/`)),
    ).toHaveLength(info?.sites.length ?? -1);
    const snapshot = await lines(
      `reports/agent-status/gsm=${product.gsm}/date=${day(0)}/snapshot.ndjson.gz`,
    );
    expect(snapshot).toHaveLength(info?.endpointCount ?? -1);
    expect(new Set(snapshot.map((e) => e.MachineID)).size).toBe(snapshot.length);
    expect(snapshot[0]).toHaveProperty('OSAndVersions');
    const sites = await lines(
      `reports/site-usage/gsm=${product.gsm}/date=${reportDay}/type=ActiveEndpoints/sites.ndjson.gz`,
    );
    expect(sites.map((s) => (s.Site as { SiteKey: string }).SiteKey).sort()).toEqual(
      info?.sites.map((s) => s.key).sort(),
    );
  });

  it('catches up a day whose manifest is missing or incomplete, and only those', async () => {
    const missing = day(-4);
    await product.aws.clients.s3.send(
      new DeleteObjectCommand({
        Bucket: product.res.bucket,
        Key: `manifests/report-fetcher/date=${missing}/gsm=${product.gsm}.json`,
      }),
    );
    const out = await product.run<{ days: { date: string }[] }>('report-fetcher');
    expect(out.days.map((m) => m.date)).toEqual([day(-2), missing]);
    expect(await product.objects(`manifests/report-fetcher/date=${missing}/`)).toHaveLength(1);
  });

  it('leaves the bucket unchanged when the same day is archived again', async () => {
    const before = await product.objects();
    await product.run('report-fetcher');
    expect(await product.objects()).toEqual(before);
  });

  it('backfills a date range: reports and a manifest per day, no snapshots', async () => {
    const from = day(-9);
    const to = day(-7);
    const out = await product.run<{ days: { date: string }[] }>('report-fetcher', {
      from,
      to,
    });
    expect(out.days.map((m) => m.date)).toEqual([day(-9), day(-8), day(-7)]);
    for (const d of [day(-9), day(-8), day(-7)]) {
      expect((await product.objects(`manifests/report-fetcher/date=${d}/`)).length).toBe(1);
      expect(
        (await product.objects(`reports/gsm-usage/gsm=${product.gsm}/date=${d}/`)).length,
      ).toBe(3);
      expect(await product.objects(`reports/agent-status/gsm=${product.gsm}/date=${d}/`)).toEqual(
        [],
      );
    }
  });

  it('refuses a malformed backfill event with the field at fault', async () => {
    await expect(
      product.run('report-fetcher', { from: '2026-13-01', to: day(-3) }),
    ).rejects.toThrow(/from/);
    await expect(product.run('report-fetcher', { from: day(-3), to: day(-5) })).rejects.toThrow(
      /from must not be after to/,
    );
  });

  it('refuses a backfill of a day the calendar lacks, naming it, and writes nothing', async () => {
    const before = await product.objects();
    const refused = (event: unknown) =>
      product.run('report-fetcher', event).then(
        () => new Error('accepted'),
        (e: Error) => e,
      );
    const february = await refused({ dates: [day(-3), '2026-02-31'] });
    expect(february.message).toMatch(/2026-02-31 is not a date \(YYYY-MM-DD\)/);
    const range = await refused({ from: '2026-02-30', to: '2026-03-02' });
    expect(range.message).toMatch(/2026-02-30 is not a date \(YYYY-MM-DD\)/);
    const month = await refused({ from: '2026-13-01', to: '2027-01-02' });
    expect(month.message).toMatch(/2026-13-01 is not a date \(YYYY-MM-DD\)/);
    expect(month.message).not.toMatch(/400 days/);
    expect(await product.objects()).toEqual(before);
  });

  it('records a site that keeps failing in the manifest instead of losing the day', async () => {
    product.emulator.setFaults([
      { operation: 'report.site.dnsp', kind: 'status', status: 500, count: 40 },
    ]);
    const d = day(-12);
    await product.run('report-fetcher', { dates: [d] });
    product.emulator.setFaults([]);
    const manifest = await product.aws.clients.s3
      .send(
        new GetObjectCommand({
          Bucket: product.res.bucket,
          Key: `manifests/report-fetcher/date=${d}/gsm=${product.gsm}.json`,
        }),
      )
      .then(async (o) => JSON.parse((await o.Body?.transformToString()) ?? '{}'));
    expect(manifest.complete).toBe(false);
    expect(manifest.sites.failed.length).toBeGreaterThan(0);
    expect(manifest.sites.failed[0].reason).toMatch(/500|internal/i);
    expect(manifest.sites.failed[0].attempts).toBe(2);
  });
});
