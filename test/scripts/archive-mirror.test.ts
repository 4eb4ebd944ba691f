import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorArchive } from '../../scripts/local/archive-mirror.js';
import type { LocalResources } from '../../scripts/local/provision.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

let aws: LocalAws;
let res: LocalResources;
let folder: string;
beforeAll(async () => {
  aws = await startLocalAws();
  res = await aws.provision();
  folder = await mkdtemp(join(tmpdir(), 'skywatch-mirror-'));
});
afterAll(async () => {
  await aws?.moto.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

const put = (Key: string, Body = 'x') =>
  aws.clients.s3.send(new PutObjectCommand({ Bucket: res.bucket, Key, Body }));

describe('Function: mirrorArchive', () => {
  it('copies reports and manifests, then only what changed', async () => {
    await put('reports/site-usage/gsm=A/date=2026-06-01/type=T/sites.ndjson.gz');
    await put('reports/site-usage/gsm=B/date=2026-06-02/type=T/sites.ndjson.gz');
    await put('manifests/report-fetcher/date=2026-06-02/gsm=A.json');
    await put('state/report-fetcher/gsm=A/date=2026-06-02/run.json');
    const first = await mirrorArchive(aws.clients.s3, res.bucket, folder);
    expect(first.downloaded).toBe(3);
    expect(await readdir(join(folder, 'reports', 'site-usage'))).toEqual(['gsm=A', 'gsm=B']);
    const again = await mirrorArchive(aws.clients.s3, res.bucket, folder);
    expect(again).toMatchObject({ downloaded: 0, unchanged: 3 });
  });

  it('keeps only the days and GSM asked for', async () => {
    const other = await mkdtemp(join(tmpdir(), 'skywatch-mirror-'));
    const out = await mirrorArchive(aws.clients.s3, res.bucket, other, {
      since: '2026-06-02',
      gsm: 'A',
    });
    expect(out.downloaded).toBe(1);
    await rm(other, { recursive: true, force: true });
  });

  it('refuses a key that would land outside the folder', async () => {
    await put('reports/../../escape.ndjson.gz');
    await expect(mirrorArchive(aws.clients.s3, res.bucket, folder)).rejects.toThrow(/unsafe/);
  });
});
