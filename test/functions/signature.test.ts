import { describe, expect, it } from 'vitest';
import { checkSignature, signingKeys } from '../../functions/cart-customer-webhook/signature.js';
import { generateSigningSecret, webhookHeaders } from '../../lib/webhooks/index.js';

const SECRET = generateSigningSecret();
const PREVIOUS = generateSigningSecret();
const NOW = 1_780_000_000;
const BODY = Buffer.from('{"a":1}');

const headersOf =
  (h: Record<string, string>) =>
  (name: string): string | undefined =>
    h[name];

function keys(secrets: Parameters<typeof signingKeys>[0]): Uint8Array[] {
  const k = signingKeys(secrets);
  if (!Array.isArray(k)) throw new Error(k.body);
  return k;
}

describe('Function: signingKeys', () => {
  it('answers 503 not_configured without a secret, or with one that is not whsec_ base64', () => {
    expect(signingKeys({})).toMatchObject({ statusCode: 503 });
    const bad = signingKeys({
      webhookSigningSecret: SECRET,
      webhookSigningSecretPrevious: 'an-old-hex-or-free-text-secret!',
    });
    expect(bad).toMatchObject({ statusCode: 503 });
    const body = JSON.parse((bad as { body: string }).body);
    expect(body).toMatchObject({ error: 'not_configured' });
    expect(body.message).toMatch(/^webhookSigningSecretPrevious must be whsec_/);
    expect(body.message).not.toContain('an-old-hex');
  });

  it('answers 503 not_configured naming an empty or missing webhookSigningSecret', () => {
    // Prepare
    const cases = [{ webhookSigningSecret: '' }, { webhookSigningSecretPrevious: PREVIOUS }];
    for (const secrets of cases) {
      // Act
      const res = signingKeys(secrets);
      // Assess
      expect(res).toMatchObject({ statusCode: 503, headers: { 'cache-control': 'no-store' } });
      const body = JSON.parse((res as { body: string }).body);
      expect(body.error).toBe('not_configured');
      expect(body.message).toMatch(/^webhookSigningSecret (is empty|is not set)/);
      expect(body.message).toContain('operators must');
    }
  });

  it('reads an empty or null webhookSigningSecretPrevious as no previous secret', () => {
    for (const previous of ['', null, undefined]) {
      expect(
        keys({ webhookSigningSecret: SECRET, webhookSigningSecretPrevious: previous }),
      ).toHaveLength(1);
    }
  });

  it('answers 503 not_configured naming the field for the old hex form or a value that is not text', () => {
    const hex = 'a3'.repeat(24);
    for (const [secrets, field, why] of [
      [{ webhookSigningSecret: hex }, 'webhookSigningSecret', 'hexadecimal digits only'],
      [
        { webhookSigningSecret: SECRET, webhookSigningSecretPrevious: `whsec_${hex}` },
        'webhookSigningSecretPrevious',
        'hexadecimal digits only',
      ],
      [{ webhookSigningSecret: 42 }, 'webhookSigningSecret', 'must be a string, not a number'],
    ] as const) {
      const res = signingKeys(secrets);
      expect(res).toMatchObject({ statusCode: 503 });
      const body = JSON.parse((res as { body: string }).body);
      expect(body).toMatchObject({ error: 'not_configured' });
      expect(body.message.startsWith(`${field} `)).toBe(true);
      expect(body.message).toContain(why);
      expect(body.message).not.toContain(hex);
    }
  });

  it('gives the current and the previous key during a rotation', () => {
    expect(
      keys({ webhookSigningSecret: SECRET, webhookSigningSecretPrevious: PREVIOUS }),
    ).toHaveLength(2);
  });
});

describe('Function: checkSignature', () => {
  const content = { id: 'msg_1', timestamp: NOW, body: BODY };

  it('accepts a delivery signed with the current or the previous secret during a rotation', () => {
    const both = keys({ webhookSigningSecret: SECRET, webhookSigningSecretPrevious: PREVIOUS });
    for (const secret of [SECRET, PREVIOUS]) {
      const h = webhookHeaders([secret], content);
      expect(checkSignature(headersOf(h), BODY, both, NOW, 300)).toEqual({ id: 'msg_1' });
    }
    const afterRotation = keys({ webhookSigningSecret: SECRET });
    const old = webhookHeaders([PREVIOUS], content);
    expect(checkSignature(headersOf(old), BODY, afterRotation, NOW, 300)).toMatchObject({
      statusCode: 401,
    });
  });

  it('refuses with 401 naming the header, and tells a sender on the old scheme', () => {
    const k = keys({ webhookSigningSecret: SECRET });
    const legacy = checkSignature(
      headersOf({ 'skywatch-signature': `t=${NOW},v1=${'0'.repeat(64)}` }),
      BODY,
      k,
      NOW,
      300,
    );
    expect(legacy).toMatchObject({ statusCode: 401 });
    expect(JSON.parse((legacy as { body: string }).body)).toMatchObject({
      error: 'signature_missing',
      field: 'webhook-signature',
      message: expect.stringContaining('Skywatch-Signature is no longer accepted'),
    });
    const late = checkSignature(
      headersOf(webhookHeaders([SECRET], content)),
      BODY,
      k,
      NOW + 301,
      300,
    );
    expect(JSON.parse((late as { body: string }).body)).toMatchObject({
      error: 'signature_expired',
      field: 'webhook-timestamp',
    });
  });
});
