import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretStore } from '../../lib/aws/secret-store.js';
import { verifyPageLink } from '../../lib/links/page-link-check.js';
import { PageLinkError } from '../../lib/links/page-link-error.js';
import { generatePageLinkKey, pageLinkSigner } from '../../lib/links/page-link-key.js';
import { provisionPageLinks } from '../../scripts/local/page-links.js';
import type { LocalResources } from '../../scripts/local/provision.js';
import { savedReportLines, saveLocalOutput } from '../../scripts/local/report-output.js';
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

  it('prints each saved page beside its signed link, checked against the local key', async () => {
    // Prepare: the key as the stack makes it, and a link signed as the report builder signs it.
    const links = await provisionPageLinks(aws.clients, res.bucket);
    const page = 'pages/daily/gsm=G/date=2026-06-15/report.html';
    await aws.clients.s3.send(
      new PutObjectCommand({ Bucket: res.bucket, Key: page, Body: '<!doctype html>' }),
    );
    const sign = pageLinkSigner(new SecretStore(aws.clients.secrets), { ...links, days: 7 });
    const link = await sign(page);

    // Act
    const saved = await saveLocalOutput(
      aws.clients.s3,
      res.bucket,
      [{ pageKey: page, pageUrl: link.url, linkExpiresAt: link.expiresAt }],
      root,
    );
    const lines = savedReportLines(saved, links);

    // Assess
    expect(lines).toEqual([
      `report: ${join(root, '.skywatch', 'reports', 'G-2026-06-15-report.html')}`,
      `  link: ${link.url}`,
      `        (valid until ${link.expiresAt.slice(0, 10)}, signature checked)`,
    ]);
    expect(link.url).toMatch(
      /^https:\/\/pages\.example\.invalid\/daily\/gsm%3DG\/date%3D2026-06-15\/report\.html\?Expires=\d+&Key-Pair-Id=KLOCALSKYWATCH1&Signature=[A-Za-z0-9_~-]+$/,
    );
    expect(verifyPageLink(link.url, links).key).toBe(page);
  });

  it('refuses to print a link the local key does not open', async () => {
    const links = await provisionPageLinks(aws.clients, `${res.bucket}-other`);
    const stranger = { ...links, publicKey: generatePageLinkKey().publicKey };
    const sign = pageLinkSigner(new SecretStore(aws.clients.secrets), { ...links, days: 7 });
    const page = 'pages/daily/gsm=G/date=2026-06-15/report.html';
    const link = await sign(page);
    const saved = {
      files: ['/tmp/G-report.html'],
      links: [{ path: '/tmp/G-report.html', ...link }],
    };
    expect(() => savedReportLines(saved, stranger)).toThrow(PageLinkError);
  });
});
