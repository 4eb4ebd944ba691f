import { createSign, createVerify } from 'node:crypto';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SecretError } from '../../lib/aws/errors.js';
import { SecretStore } from '../../lib/aws/secret-store.js';
import { redact } from '../../lib/errors/index.js';
import { verifyPageLink } from '../../lib/links/page-link-check.js';
import { PageLinkError } from '../../lib/links/page-link-error.js';
import { generatePageLinkKey, pageLinkSigner, publicKeyOf } from '../../lib/links/page-link-key.js';
import { pageUrl, signPageLink } from '../../lib/links/page-links.js';
import { latestPageKey } from '../../lib/reports/page-keys.js';

const keys = generatePageLinkKey();
const ORIGIN = 'https://d111111abcdef8.cloudfront.net';
const signer = {
  origin: ORIGIN,
  keyPairId: 'K2JCJMDEHXQW5F',
  privateKey: keys.privateKey,
  days: 7,
};
const trusted = { keyPairId: signer.keyPairId, publicKey: keys.publicKey };
const NOW = new Date('2026-06-16T06:00:00.400Z');
/** NOW's whole second plus seven days, as CloudFront's AWS:EpochTime. */
const EXPIRES = 1_782_194_400;
const KEY = 'pages/daily/gsm=ABCD-EFGH-IJKL-MNOP-QRST/latest/report.html';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof PageLinkError ? error.problem : `not a PageLinkError: ${error}`;
  }
  return 'accepted';
};

describe('Function: signPageLink (CloudFront canned policy)', () => {
  it('signs the documented canned policy of the URL and expiry with RSA-SHA1', () => {
    // Prepare: the policy exactly as CloudFront's developer guide writes it, no whitespace.
    const resource = `${ORIGIN}/daily/gsm%3DABCD-EFGH-IJKL-MNOP-QRST/latest/report.html`;
    const policy = `{"Statement":[{"Resource":"${resource}","Condition":{"DateLessThan":{"AWS:EpochTime":${EXPIRES}}}}]}`;

    // Act
    const link = signPageLink(KEY, signer, NOW);

    // Assess: the URL is the resource with the three canned-policy parameters and no others.
    const [base, query] = link.url.split('?');
    expect(base).toBe(resource);
    const params = new URLSearchParams(query);
    expect([...params.keys()].sort()).toEqual(['Expires', 'Key-Pair-Id', 'Signature']);
    expect(params.get('Expires')).toBe(String(EXPIRES));
    expect(params.get('Key-Pair-Id')).toBe('K2JCJMDEHXQW5F');
    expect(link.expiresAt).toBe('2026-06-23T06:00:00.000Z');
    // The signature in CloudFront's URL-safe base64, which the parameter carries unescaped.
    const signature = params.get('Signature') ?? '';
    expect(signature).toMatch(/^[A-Za-z0-9\-_~]+$/);
    expect(query).toContain(`Signature=${signature}`);
    const standard = signature.replace(/-/g, '+').replace(/_/g, '=').replace(/~/g, '/');
    expect(createVerify('RSA-SHA1').update(policy).verify(keys.publicKey, standard, 'base64')).toBe(
      true,
    );
    // PKCS#1 v1.5 is deterministic: the same policy signed by hand gives the same bytes.
    const byHand = createSign('RSA-SHA1').update(policy).sign(keys.privateKey, 'base64');
    expect(signature).toBe(byHand.replace(/\+/g, '-').replace(/=/g, '_').replace(/\//g, '~'));
  });

  it('makes links only for keys under pages/, never one that climbs out', () => {
    for (const key of [
      'reports/gsm-usage/x.ndjson.gz',
      'pages/',
      'pages/daily/../../state/x',
      'pages//x',
    ]) {
      expect(
        refusal(() => pageUrl(ORIGIN, key)),
        key,
      ).toBe('not-a-page');
    }
    expect(pageUrl(`${ORIGIN}/`, 'pages/seats/a b.csv')).toBe(`${ORIGIN}/seats/a%20b.csv`);
  });

  it('refuses a validity of no whole days', () => {
    expect(() => signPageLink(KEY, { ...signer, days: 0 }, NOW)).toThrow(RangeError);
    expect(() => signPageLink(KEY, { ...signer, days: 1.5 }, NOW)).toThrow(RangeError);
  });
});

describe('Function: verifyPageLink', () => {
  const link = signPageLink(KEY, signer, NOW);

  it('accepts its own link until the expiry and names the page', () => {
    const justBefore = new Date(EXPIRES * 1000 - 1);
    expect(verifyPageLink(link.url, trusted, justBefore)).toEqual({
      key: KEY,
      expiresAt: '2026-06-23T06:00:00.000Z',
    });
  });

  it('refuses an expired link, from the second of its expiry on', () => {
    expect(refusal(() => verifyPageLink(link.url, trusted, new Date(EXPIRES * 1000)))).toBe(
      'expired',
    );
    expect(refusal(() => verifyPageLink(link.url, trusted, new Date('2027-01-01')))).toBe(
      'expired',
    );
  });

  it('refuses the signature moved to another page, or given a later expiry', () => {
    const other = link.url.replace('ABCD-EFGH', 'ZZZZ-EFGH');
    expect(refusal(() => verifyPageLink(other, trusted, NOW))).toBe('bad-signature');
    const later = link.url.replace(`Expires=${EXPIRES}`, `Expires=${EXPIRES + 86_400 * 365}`);
    expect(refusal(() => verifyPageLink(later, trusted, NOW))).toBe('bad-signature');
  });

  it('refuses a link signed by another key, or naming another key pair', () => {
    const stranger = signPageLink(
      KEY,
      { ...signer, privateKey: generatePageLinkKey().privateKey },
      NOW,
    );
    expect(refusal(() => verifyPageLink(stranger.url, trusted, NOW))).toBe('bad-signature');
    const renamed = link.url.replace('K2JCJMDEHXQW5F', 'KOTHERKEYPAIR1');
    expect(refusal(() => verifyPageLink(renamed, trusted, NOW))).toBe('bad-signature');
  });

  it('refuses a URL without the signing parameters', () => {
    expect(refusal(() => verifyPageLink(link.url.split('?')[0] ?? '', trusted, NOW))).toBe(
      'malformed',
    );
    expect(
      refusal(() => verifyPageLink(link.url.replace(/&?Signature=[^&]+/, ''), trusted, NOW)),
    ).toBe('malformed');
  });

  it('round-trips any page key and any validity', () => {
    const segment = fc
      .stringMatching(/^[A-Za-z0-9._=-]{1,12}$/)
      .filter((s) => s !== '.' && s !== '..');
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 90 }),
        (parts, days) => {
          const key = `pages/${parts.join('/')}`;
          const signed = signPageLink(key, { ...signer, days }, NOW);
          expect(verifyPageLink(signed.url, trusted, NOW).key).toBe(key);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('Function: pageLinkSigner', () => {
  const storeOf = (value: unknown) =>
    new SecretStore({
      send: async () => ({ SecretString: JSON.stringify(value) }),
    } as unknown as SecretsManagerClient);

  it('signs with the key from the secret and registers the key for redaction', async () => {
    const sign = pageLinkSigner(storeOf({ privateKey: keys.privateKey }), {
      ...signer,
      secretArn: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:links',
    });
    const link = await sign(latestPageKey('ABCD-EFGH-IJKL-MNOP-QRST'), NOW);
    expect(verifyPageLink(link.url, trusted, NOW).key).toBe(KEY);
    expect(redact(`key: ${keys.privateKey}`)).toBe('key: [REDACTED]');
  });

  it('refuses a secret without a private key, naming the field, not the value', async () => {
    const sign = pageLinkSigner(storeOf({ privateKey: 'not a key' }), {
      ...signer,
      secretArn: 'arn:s',
    });
    const error = await sign(KEY, NOW).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretError);
    expect((error as Error).message).toContain('privateKey');
    expect((error as Error).message).not.toContain('not a key');
  });

  it('names the public key of a kept private key again', () => {
    expect(publicKeyOf(keys.privateKey)).toBe(keys.publicKey);
  });
});
