import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  generateSigningSecret,
  parseSigningSecret,
  SigningSecretError,
  signatureHeader,
  verifyWebhook,
  webhookHeaders,
} from '../../../lib/webhooks/index.js';

/**
 * The published test vectors of the Standard Webhooks JavaScript library
 * (standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts).
 */
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const KEY = parseSigningSecret(VECTOR.secret);
const OPTIONS = { nowSeconds: VECTOR.timestamp, toleranceSeconds: 300 };

const headersOf =
  (h: Record<string, string | undefined>) =>
  (name: string): string | undefined =>
    h[name];

function verify(h: Record<string, string | undefined>, body: string | Uint8Array = VECTOR.body) {
  return verifyWebhook(headersOf(h), body, [KEY], OPTIONS);
}

const good = () => ({
  'webhook-id': VECTOR.id,
  'webhook-timestamp': String(VECTOR.timestamp),
  'webhook-signature': VECTOR.signature,
});

describe('Standard Webhooks: signing', () => {
  it('signs the published vector as the reference library does', () => {
    expect(signatureHeader([VECTOR.secret], VECTOR)).toBe(VECTOR.signature);
    expect(webhookHeaders([VECTOR.secret], VECTOR)).toEqual(good());
  });

  it('reads secrets with and without the whsec_ prefix alike', () => {
    expect(parseSigningSecret(VECTOR.secret.slice('whsec_'.length))).toEqual(KEY);
  });

  it('signs with every secret given, space-separated, for a rotation', () => {
    const other = generateSigningSecret();
    const header = signatureHeader([other, VECTOR.secret], VECTOR);
    expect(header.split(' ')).toHaveLength(2);
    expect(header.endsWith(` ${VECTOR.signature}`)).toBe(true);
  });

  it('refuses secrets that are not base64 of 24–64 bytes, naming the field and not the value', () => {
    for (const bad of ['', 'whsec_', 'whsec_short', 'x'.repeat(31), 'a-b_c'.repeat(8), 'QUJD']) {
      expect(() => parseSigningSecret(bad, 'webhookSigningSecret')).toThrow(SigningSecretError);
    }
    try {
      parseSigningSecret(
        'whsec_not-base64-at-all-but-long-enough!!',
        'webhookSigningSecretPrevious',
      );
    } catch (error) {
      expect((error as Error).message).toMatch(/^webhookSigningSecretPrevious must be whsec_/);
      expect((error as Error).message).not.toContain('not-base64');
    }
    // 48 letters and digits, the shape CDK generates, is base64 of 36 bytes. (Not hex digits
    // alone, such as 'A1' repeated: that is the old hex form, refused; see secret.test.ts.)
    expect(parseSigningSecret('Kq7ZrT2mXw9LpA4vBn6YcD1sFg8HjE3uRk5NtW0oVi7QzPxS').byteLength).toBe(
      36,
    );
  });
});

describe('Standard Webhooks: verifying', () => {
  it('accepts the published vector, with or without the secret prefix', () => {
    expect(verify(good())).toEqual({ ok: true, id: VECTOR.id, timestamp: VECTOR.timestamp });
  });

  it('names the missing or malformed header', () => {
    expect(verify({ ...good(), 'webhook-signature': undefined })).toMatchObject({
      problem: 'missing',
      header: 'webhook-signature',
    });
    expect(verify({ ...good(), 'webhook-id': undefined })).toMatchObject({
      problem: 'missing',
      header: 'webhook-id',
    });
    expect(verify({ ...good(), 'webhook-timestamp': undefined })).toMatchObject({
      problem: 'missing',
      header: 'webhook-timestamp',
    });
    expect(verify({ ...good(), 'webhook-timestamp': 'hello' })).toMatchObject({
      problem: 'malformed',
      header: 'webhook-timestamp',
    });
    expect(verify({ ...good(), 'webhook-timestamp': `${VECTOR.timestamp}abc` })).toMatchObject({
      problem: 'malformed',
    });
    expect(verify({ ...good(), 'webhook-id': 'msg.1' })).toMatchObject({
      problem: 'malformed',
      header: 'webhook-id',
    });
    for (const sig of ['v1,dawfeoifkpqwoekfpqoekf', 'v1,', VECTOR.signature.slice(0, 8), 'v2,x']) {
      expect(verify({ ...good(), 'webhook-signature': sig })).toMatchObject({
        problem: 'malformed',
        header: 'webhook-signature',
      });
    }
  });

  it('refuses timestamps outside the tolerance either way', () => {
    for (const shift of [-301, 301]) {
      const timestamp = VECTOR.timestamp + shift;
      const h = webhookHeaders([VECTOR.secret], { ...VECTOR, timestamp });
      expect(verify(h)).toMatchObject({ problem: 'expired', header: 'webhook-timestamp' });
    }
  });

  it('accepts any matching v1 among several, in any place, and skips other versions', () => {
    const decoy = 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=';
    for (const list of [
      [decoy, 'v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=', VECTOR.signature, decoy],
      [VECTOR.signature, decoy],
      [decoy, VECTOR.signature],
      [
        'v1a,hnO3f9T8Ytu9HwrXslvumlUpqtNVqkhqw/enGzPCXe5BdqzCInXqYXFymVJaA7AZdpXwVLPo3mNl8EM+m7TBAg==',
        VECTOR.signature,
      ],
    ]) {
      expect(verify({ ...good(), 'webhook-signature': list.join(' ') }).ok).toBe(true);
    }
    expect(verify({ ...good(), 'webhook-signature': `${decoy} ${decoy}` })).toMatchObject({
      problem: 'mismatch',
    });
  });

  it('compares signatures as their base64 text: a letter with its case changed is another signature', () => {
    const swapped = `v1,${VECTOR.signature.slice(3).replace(/[a-z]/, (c) => c.toUpperCase())}`;
    expect(verify({ ...good(), 'webhook-signature': swapped })).toMatchObject({
      problem: 'mismatch',
    });
  });

  it('refuses a signature whose last character has an unused bit changed, as the reference library does', () => {
    // Prepare: 32 bytes end in a character with 2 unused low bits; flipped, it decodes the same
    const now = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders([VECTOR.secret], { ...VECTOR, timestamp: now });
    const b64 = headers['webhook-signature'].slice(3);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const flipped = `${b64.slice(0, 42)}${alphabet[alphabet.indexOf(b64.charAt(42)) ^ 1]}=`;
    expect(flipped).not.toBe(b64);
    expect(Buffer.from(flipped, 'base64')).toEqual(Buffer.from(b64, 'base64'));
    const changed = { ...headers, 'webhook-signature': `v1,${flipped}` };
    const options = { nowSeconds: now, toleranceSeconds: 300 };
    const reference = new Webhook(VECTOR.secret);
    // Act
    const original = verifyWebhook(headersOf(headers), VECTOR.body, [KEY], options);
    const ours = verifyWebhook(headersOf(changed), VECTOR.body, [KEY], options);
    // Assess
    expect(original.ok).toBe(true);
    expect(() => reference.verify(VECTOR.body, headers)).not.toThrow();
    expect(ours).toMatchObject({ problem: 'mismatch', header: 'webhook-signature' });
    expect(() => reference.verify(VECTOR.body, changed)).toThrow('No matching signature found');
  });

  it('verifies with any of the keys it is given (the previous secret during a rotation)', () => {
    const current = parseSigningSecret(generateSigningSecret());
    expect(verifyWebhook(headersOf(good()), VECTOR.body, [current, KEY], OPTIONS).ok).toBe(true);
    expect(verifyWebhook(headersOf(good()), VECTOR.body, [current], OPTIONS)).toMatchObject({
      problem: 'mismatch',
    });
  });

  it('rejects any change to id, timestamp or body (property)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
        fc.string(),
        fc.string(),
        (id, body, other) => {
          fc.pre(body !== other);
          const h = webhookHeaders([VECTOR.secret], { id, timestamp: VECTOR.timestamp, body });
          expect(verify(h, body).ok).toBe(true);
          expect(verify(h, other)).toMatchObject({ problem: 'mismatch' });
          expect(verify({ ...h, 'webhook-id': `${id}x` }, body)).toMatchObject({
            problem: 'mismatch',
          });
          const moved = { ...h, 'webhook-timestamp': String(VECTOR.timestamp - 1) };
          expect(verify(moved, body)).toMatchObject({ problem: 'mismatch' });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws on arbitrary header text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 40 }), (sig, id) => {
        const r = verify({ ...good(), 'webhook-signature': sig, 'webhook-id': id });
        expect(r.ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('verifies bytes that are not UTF-8 as they are, not as a decoder would repair them (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.integer({ min: 0x80, max: 0xff }),
        (bytes, stray) => {
          const body = Buffer.concat([Buffer.from(bytes), Buffer.from([stray])]);
          fc.pre(!Buffer.from(body.toString('utf8'), 'utf8').equals(body));
          const content = { id: VECTOR.id, timestamp: VECTOR.timestamp, body };
          expect(verify(webhookHeaders([VECTOR.secret], content), body).ok).toBe(true);
          const repaired = { ...content, body: body.toString('utf8') };
          expect(verify(webhookHeaders([VECTOR.secret], repaired), body)).toMatchObject({
            problem: 'mismatch',
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('signs a text body as its UTF-8 bytes (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (body) => {
        const content = { id: VECTOR.id, timestamp: VECTOR.timestamp };
        expect(signatureHeader([VECTOR.secret], { ...content, body: Buffer.from(body) })).toBe(
          signatureHeader([VECTOR.secret], { ...content, body }),
        );
      }),
      { numRuns: 200 },
    );
  });
});
