import { describe, expect, it } from 'vitest';
import {
  buildDigest,
  digestMessage,
  latestReport,
} from '../../functions/infection-alerter/health/digest.js';
import type { StateStore } from '../../lib/aws/index.js';
import { verifyPageLink } from '../../lib/links/page-link-check.js';
import { generatePageLinkKey } from '../../lib/links/page-link-key.js';
import { signPageLink } from '../../lib/links/page-links.js';
import { latestPageKey } from '../../lib/reports/page-keys.js';

// No subject records: the digest's counts are not what these tests are about.
const emptyState = {
  async *list() {},
  get: async () => undefined,
} as unknown as StateStore;
const names = { consoleName: 'Acme', siteName: () => null };
const now = Date.parse('2026-06-16T06:00:00Z');

describe('daily digest: the link to the latest report page', () => {
  it('names the stable latest page of the GSM by S3 URI and S3 console URL', async () => {
    const digest = await buildDigest(emptyState, 'GSM-1', names, () => undefined, now, 'b-1');
    const key = latestPageKey('GSM-1');
    expect(key).toBe('pages/daily/gsm=GSM-1/latest/report.html');
    expect(digest.report).toEqual({
      s3Uri: `s3://b-1/${key}`,
      consoleUrl: `https://console.aws.amazon.com/s3/object/b-1?prefix=${encodeURIComponent(key)}`,
    });
    expect(digest.report?.consoleUrl).toContain('prefix=pages%2Fdaily%2Fgsm%3DGSM-1%2Flatest');
  });

  it('puts the link in the Chatbot description as a client-markdown link', async () => {
    const digest = await buildDigest(emptyState, 'GSM-1', names, () => undefined, now, 'b-1');
    const lines = digestMessage(digest).content.description.split('\n');
    expect(lines.at(-1)).toBe(
      `Daily report: <${digest.report?.consoleUrl}|s3://b-1/pages/daily/gsm=GSM-1/latest/report.html>`,
    );
    const context = JSON.parse(digestMessage(digest).metadata.additionalContext.skywatchDigest);
    expect(context.report).toEqual(digest.report);
  });

  it('leaves the line out with no bucket, or a GSM that cannot name a key', async () => {
    const digest = await buildDigest(emptyState, 'GSM-1', names, () => undefined, now);
    expect(digest.report).toBeNull();
    expect(digestMessage(digest).content.description).not.toContain('Daily report');
    expect(latestReport('b-1', 'GSM/../x')).toBeNull();
  });
});

describe('daily digest: the signed link to the latest report page', () => {
  const keys = generatePageLinkKey();
  const signer = {
    origin: 'https://d111111abcdef8.cloudfront.net',
    keyPairId: 'K2JCJMDEHXQW5F',
    privateKey: keys.privateKey,
    days: 7,
  };
  const links = async (key: string) => signPageLink(key, signer, new Date(now));

  it('carries a link that opens the latest page for the configured days', async () => {
    const digest = await buildDigest(
      emptyState,
      'GSM-1',
      names,
      () => undefined,
      now,
      'b-1',
      links,
    );
    const url = digest.report?.url ?? '';
    const opened = verifyPageLink(
      url,
      { keyPairId: 'K2JCJMDEHXQW5F', publicKey: keys.publicKey },
      new Date(now),
    );
    expect(opened).toEqual({ key: latestPageKey('GSM-1'), expiresAt: '2026-06-23T06:00:00.000Z' });
    expect(digest.report?.s3Uri).toBe(`s3://b-1/${latestPageKey('GSM-1')}`);
  });

  it('renders it as a client-markdown link with its expiry, the S3 console link gone', async () => {
    const digest = await buildDigest(
      emptyState,
      'GSM-1',
      names,
      () => undefined,
      now,
      'b-1',
      links,
    );
    const lines = digestMessage(digest).content.description.split('\n');
    expect(lines.at(-1)).toBe(
      `Daily report: <${digest.report?.url}|open the latest daily page> (link valid until 2026-06-23)`,
    );
    expect(lines.join('\n')).not.toContain('console.aws.amazon.com');
  });

  it('keeps the S3 location when no link could be signed', async () => {
    const digest = await buildDigest(
      emptyState,
      'GSM-1',
      names,
      () => undefined,
      now,
      'b-1',
      async () => undefined,
    );
    expect(digest.report?.url).toBeUndefined();
    expect(digestMessage(digest).content.description).toContain(
      '|s3://b-1/pages/daily/gsm=GSM-1/latest/report.html>',
    );
  });
});
