import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportStore, reportKey } from '../../lib/aws/index.js';
import {
  dnspUsageFolder,
  dnspUsageKey,
  isSnapshotKey,
  snapshotFolder,
  snapshotKey,
} from '../../lib/aws/report-keys.js';
import type { LocalResources } from '../../scripts/local/provision.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

let aws: LocalAws;
let res: LocalResources;
let store: ReportStore;

beforeAll(async () => {
  aws = await startLocalAws();
  res = await aws.provision();
  store = new ReportStore(aws.clients.s3, res.bucket);
});
afterAll(async () => aws?.moto.stop());

async function read(key: string) {
  const out = await aws.clients.s3.send(new GetObjectCommand({ Bucket: res.bucket, Key: key }));
  const bytes = Buffer.from(await (out.Body?.transformToByteArray() ?? new Uint8Array()));
  return { out, lines: gunzipSync(bytes).toString('utf8').trim().split('\n') };
}

describe('Class: ReportStore', () => {
  it('writes gzip NDJSON under a Hive-style key with content type and metadata', async () => {
    const key = reportKey({
      dataset: 'site-usage',
      gsm: 'AAAA-BBBB-CCCC-DDDD-EEEE',
      date: '2026-06-13',
      file: 'sites.ndjson.gz',
    });
    expect(key).toBe(
      'reports/site-usage/gsm=AAAA-BBBB-CCCC-DDDD-EEEE/date=2026-06-13/sites.ndjson.gz',
    );
    const written = await store.writeRecords(key, [{ a: 1 }, { a: 2 }], { source: 'test' });
    expect(written).toMatchObject({ records: 2, written: true });
    const { out, lines } = await read(key);
    expect(out.ContentType).toBe('application/x-ndjson');
    expect(out.ContentEncoding).toBe('gzip');
    expect(out.Metadata).toMatchObject({ source: 'test', records: '2', sha256: written.sha256 });
    expect(lines.map((l) => JSON.parse(l))).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('skips an identical rewrite and replaces a changed one at the same key', async () => {
    const key = reportKey({
      dataset: 'gsm-usage',
      gsm: 'AAAA-BBBB-CCCC-DDDD-EEEE',
      date: '2026-06-13',
      file: 'r.ndjson.gz',
    });
    await store.writeRecords(key, [{ v: 1 }]);
    const again = await store.writeRecords(key, [{ v: 1 }]);
    expect(again.written).toBe(false);
    const changed = await store.writeRecords(key, [{ v: 2 }]);
    expect(changed.written).toBe(true);
    const list = await aws.clients.s3.send(
      new ListObjectsV2Command({ Bucket: res.bucket, Prefix: 'reports/gsm-usage/' }),
    );
    expect(list.Contents?.map((o) => o.Key)).toEqual([key]);
    expect((await read(key)).lines).toEqual(['{"v":2}']);
  });

  it('compresses at the level it is given, and refuses one zlib does not have', async () => {
    const records = Array.from({ length: 2000 }, (_, i) => ({ i, text: `endpoint ${i % 17}` }));
    const sizes: number[] = [];
    for (const gzipLevel of [1, 9]) {
      const leveled = new ReportStore(aws.clients.s3, res.bucket, { gzipLevel });
      const key = reportKey({
        dataset: 'x',
        gsm: 'G',
        date: '2026-06-17',
        file: `l${gzipLevel}.gz`,
      });
      sizes.push((await leveled.writeRecords(key, records)).bytes);
      expect((await read(key)).lines.map((l) => JSON.parse(l))).toEqual(records);
    }
    expect(sizes[1]).toBeLessThan(sizes[0] ?? 0);
    for (const gzipLevel of [0, 10, 2.5])
      expect(() => new ReportStore(aws.clients.s3, res.bucket, { gzipLevel })).toThrow(
        /gzipLevel must be an integer from 1 to 9/,
      );
  });

  it('puts every key a writer makes below the folder its reader lists', () => {
    const [gsm, day] = ['G', '2026-06-13'];
    expect(dnspUsageKey(gsm, day, 'S1').startsWith(dnspUsageFolder(gsm, day))).toBe(true);
    for (const site of [undefined, 'S1']) {
      const key = snapshotKey('agent-status', gsm, day, site);
      expect(key.startsWith(snapshotFolder('agent-status', gsm, day))).toBe(true);
      expect(isSnapshotKey(key)).toBe(true);
    }
    expect(() => dnspUsageKey(gsm, day, '../S2')).toThrow(/unsafe/);
    expect(() => snapshotKey('dnsp-status', gsm, '2026-02-31')).toThrow(/YYYY-MM-DD/);
  });

  it('refuses key parts that would escape their partition', () => {
    expect(() => reportKey({ dataset: 'x', gsm: '../etc', date: '2026-06-13', file: 'f' })).toThrow(
      /unsafe/,
    );
    expect(() => reportKey({ dataset: 'x', gsm: 'g', date: '13/06/2026', file: 'f' })).toThrow(
      /YYYY-MM-DD/,
    );
  });
});
