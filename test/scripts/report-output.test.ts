import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalResources } from '../../scripts/local/provision.js';
import { saveLocalOutput } from '../../scripts/local/report-output.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

let aws: LocalAws;
let res: LocalResources;
let root: string;
beforeAll(async () => {
  aws = await startLocalAws();
  res = await aws.provision();
  root = await mkdtemp(join(tmpdir(), 'skywatch-output-'));
});
afterAll(async () => {
  await aws?.moto.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('Function: saveLocalOutput', () => {
  it('copies the archive for queries and saves each page and CSV under .skywatch/reports', async () => {
    const put = (Key: string, Body: string) =>
      aws.clients.s3.send(new PutObjectCommand({ Bucket: res.bucket, Key, Body }));
    const page = 'pages/daily/gsm=G/date=2026-06-14/report.html';
    const csv = 'pages/seats/gsm=G/month=2026-05/seats-2026-05.csv';
    await put(page, '<!doctype html>');
    await put(csv, 'month\r\n');
    await put('reports/gsm-usage/gsm=G/date=2026-06-14/type=T/report.ndjson.gz', 'x');
    const out = await saveLocalOutput(
      aws.clients.s3,
      res.bucket,
      [{ pageKey: page, seatCsvKey: csv }],
      root,
    );
    expect(out.files).toEqual([
      join(root, '.skywatch', 'reports', 'G-2026-06-14-report.html'),
      join(root, '.skywatch', 'reports', 'G-2026-05-seats-2026-05.csv'),
    ]);
    expect(readFileSync(out.files[0] ?? '', 'utf8')).toBe('<!doctype html>');
    expect(existsSync(join(out.archive, 'reports', 'gsm-usage', 'gsm=G'))).toBe(true);
  });
});
