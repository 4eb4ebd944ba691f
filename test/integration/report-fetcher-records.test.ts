import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DayRecords, type RunRecord } from '../../functions/report-fetcher/day-records.js';
import { finaliseDay, Manifest } from '../../functions/report-fetcher/manifest.js';
import { StateStore } from '../../lib/aws/index.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

/**
 * The day records and the manifest built from them, on local S3: what a site worker and the
 * fetcher write, and what a finalisation reads and writes.
 */
let aws: LocalAws;
let records: DayRecords;
let manifests: StateStore;
/** Sites whose records a finalisation read, call by call. */
const reads: string[][] = [];

beforeAll(async () => {
  aws = await startLocalAws();
  const res = await aws.provision();
  records = new (class extends DayRecords {
    override readSites(gsm: string, day: string, sites: string[]) {
      reads.push([...sites]);
      return super.readSites(gsm, day, sites);
    }
  })(new StateStore(aws.clients.s3, res.bucket));
  manifests = new StateStore(aws.clients.s3, res.bucket, '');
});
afterAll(async () => aws?.moto.stop());

const GSM = 'GSM1-AAAA';
const object = (key: string) => ({ key, bytes: 10, records: 1, sha256: `sha-${key}` });
const run = (day: string, sites: string[]): RunRecord => ({
  schema: 'skywatch.report-run/v1',
  gsm: GSM,
  date: day,
  snapshotDate: null,
  sites,
  objects: [object('reports/gsm-usage/x')],
});
const task = (day: string, site: string) => ({ gsm: GSM, day, site });
const deps = () => ({ records, manifests });

describe('Function: report-fetcher day records and manifest', () => {
  it('builds the manifest from the records: archived, failed and untried sites', async () => {
    const day = '2026-05-01';
    await records.writeRun(run(day, ['A', 'B', 'C', 'D']));
    await records.archived(task(day, 'B'), [object('reports/dnsp-usage/B')]);
    await records.archived(task(day, 'A'), [object('reports/dnsp-usage/A')]);
    await records.failed(task(day, 'C'), 'HTTP 500 internal_error');
    await records.failed(task(day, 'C'), 'HTTP 503 service_unavailable');
    // A record of a site the sites report no longer lists plays no part.
    await records.archived(task(day, 'Z'), [object('reports/dnsp-usage/Z')]);

    const manifest = await finaliseDay(deps(), GSM, day);
    expect(manifest).toMatchObject({
      complete: false,
      sites: {
        expected: 4,
        archived: 2,
        missing: ['C', 'D'],
        failed: [{ site: 'C', reason: 'HTTP 503 service_unavailable', attempts: 2 }],
      },
    });
    expect(manifest?.objects.map((o) => [o.key, o.site])).toEqual([
      ['reports/dnsp-usage/A', 'A'],
      ['reports/dnsp-usage/B', 'B'],
      ['reports/gsm-usage/x', undefined],
    ]);
    expect(
      (await manifests.get(`manifests/report-fetcher/date=${day}/gsm=${GSM}.json`, Manifest))
        ?.value,
    ).toBeDefined();
  });

  it('reads again only the records that changed, and writes nothing when none did', async () => {
    const day = '2026-05-02';
    await records.writeRun(run(day, ['A', 'B', 'C']));
    for (const site of ['A', 'B', 'C'])
      await records.archived(task(day, site), [object(`reports/dnsp-usage/${site}`)]);
    await finaliseDay(deps(), GSM, day);
    const key = `manifests/report-fetcher/date=${day}/gsm=${GSM}.json`;
    const first = await manifests.get(key, Manifest);

    reads.length = 0;
    await finaliseDay(deps(), GSM, day);
    expect(reads).toEqual([[]]);
    expect((await manifests.get(key, Manifest))?.etag).toBe(first?.etag);

    await records.archived(task(day, 'B'), [{ ...object('reports/dnsp-usage/B'), bytes: 99 }]);
    reads.length = 0;
    const manifest = await finaliseDay(deps(), GSM, day);
    expect(reads).toEqual([['B']]);
    expect(manifest?.objects.find((o) => o.site === 'B')?.bytes).toBe(99);
    expect(manifest?.complete).toBe(true);
  });

  it('never lets a failed attempt replace an archived record', async () => {
    const day = '2026-05-03';
    await records.writeRun(run(day, ['A']));
    await records.archived(task(day, 'A'), [object('reports/dnsp-usage/A')]);
    expect(await records.failed(task(day, 'A'), 'HTTP 500')).toBe(false);
    expect((await finaliseDay(deps(), GSM, day))?.complete).toBe(true);
  });

  it('ends with a manifest that reflects every record when finalisations race', async () => {
    const day = '2026-05-04';
    // Six at once: the site workers' default maximum concurrency (5) and the fetcher.
    const sites = Array.from({ length: 6 }, (_, n) => `S${String(n).padStart(2, '0')}`);
    await records.writeRun(run(day, sites));
    // Each site recorded and finalised at once, all concurrently, as racing workers would.
    await Promise.all(
      sites.map(async (site) => {
        await records.archived(task(day, site), [object(`reports/dnsp-usage/${site}`)]);
        await finaliseDay(deps(), GSM, day);
      }),
    );
    const stored = await manifests.get(
      `manifests/report-fetcher/date=${day}/gsm=${GSM}.json`,
      Manifest,
    );
    expect(stored?.value).toMatchObject({ complete: true, sites: { archived: 6, missing: [] } });
  });

  it('has nothing to finalise for a day without a run record', async () => {
    expect(await finaliseDay(deps(), GSM, '2026-04-01')).toBeUndefined();
  });
});
