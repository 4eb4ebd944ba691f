import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { SkywatchError } from '../../../lib/errors/index.js';
import {
  generateSigningSecret,
  MAX_SECRET_BYTES,
  MIN_SECRET_BYTES,
  parseSigningSecret,
  SigningSecretError,
  signatureHeader,
} from '../../../lib/webhooks/index.js';

const FIELD = 'webhookSigningSecret';

/** The error parseSigningSecret throws for `secret`, or a failure when it throws none. */
function refusal(secret: string, field = FIELD): SigningSecretError {
  try {
    parseSigningSecret(secret, field);
  } catch (error) {
    expect(error).toBeInstanceOf(SigningSecretError);
    return error as SigningSecretError;
  }
  throw new Error('the secret was accepted');
}

/** The base64 letter whose value differs from `c`'s in the lowest bit. */
function flipLowBit(c: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  return alphabet[alphabet.indexOf(c) ^ 1] ?? c;
}

describe('Function: parseSigningSecret', () => {
  it('accepts whsec_ + base64 of 24–64 random bytes, with or without the prefix (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: MIN_SECRET_BYTES, maxLength: MAX_SECRET_BYTES }),
        (bytes) => {
          // Prepare
          const b64 = Buffer.from(bytes).toString('base64');
          fc.pre(!/^[0-9A-Fa-f]+$/.test(b64));
          // Act
          const key = parseSigningSecret(`whsec_${b64}`);
          // Assess
          expect(key).toEqual(Buffer.from(bytes));
          expect(parseSigningSecret(b64)).toEqual(key);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('accepts the 48 letters and digits CDK generates, as base64 of 36 bytes', () => {
    expect(parseSigningSecret('Kq7ZrT2mXw9LpA4vBn6YcD1sFg8HjE3uRk5NtW0oVi7QzPxS').byteLength).toBe(
      36,
    );
  });

  it('derives the key the reference library derives, so both sign alike (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_SECRET_BYTES, max: MAX_SECRET_BYTES }), (n) => {
        const secret = generateSigningSecret(n);
        const content = { id: 'msg_1', timestamp: 1_780_000_000, body: '{"a":1}' };
        expect(signatureHeader([secret], content)).toBe(
          new Webhook(secret).sign(content.id, new Date(content.timestamp * 1000), content.body),
        );
      }),
      { numRuns: 50 },
    );
  });

  it('refuses an empty secret, with or without the prefix, saying it is empty', () => {
    for (const empty of ['', 'whsec_']) {
      const error = refusal(empty);
      expect(error.field).toBe(FIELD);
      expect(error.message).toMatch(/^webhookSigningSecret is empty: it must be whsec_ followed/);
    }
  });

  it('refuses the old hex form, even though it is valid base64, and says how to make a new one', () => {
    for (const bytes of [24, 32]) {
      // Prepare: what `openssl rand -hex 24` gave for Skywatch-Signature, in either case
      const hex = randomBytes(bytes).toString('hex');
      expect(Buffer.from(hex, 'base64').toString('base64')).toBe(hex);
      for (const secret of [hex, hex.toUpperCase(), `whsec_${hex}`]) {
        // Act
        const error = refusal(secret, 'webhookSigningSecretPrevious');
        // Assess
        expect(error.field).toBe('webhookSigningSecretPrevious');
        expect(error.message).toMatch(
          /^webhookSigningSecretPrevious holds hexadecimal digits only, like the old Skywatch-Signature secrets/,
        );
        expect(error.message).toContain('echo "whsec_$(openssl rand -base64 32)"');
        expect(error.message.toLowerCase()).not.toContain(hex.toLowerCase());
      }
    }
  });

  it('refuses base64 that is not canonical: a changed unused bit in the last character', () => {
    // Prepare: 32 bytes end in one character carrying 2 unused bits, then "="
    const secret = generateSigningSecret(32);
    const last = secret.length - 2;
    const changed = `${secret.slice(0, last)}${flipLowBit(secret.charAt(last))}=`;
    expect(Buffer.from(changed.slice(6), 'base64')).toEqual(parseSigningSecret(secret));
    // Act
    const error = refusal(changed);
    // Assess
    expect(error.message).toMatch(/^webhookSigningSecret must be whsec_.*not canonical base64/);
    expect(error.message).not.toContain(changed.slice(6, 20));
  });

  it('refuses text that is not base64, and keys of another length, saying which', () => {
    for (const bad of ['whsec_short', 'x'.repeat(31), 'a-b_c'.repeat(8), `whsec_${'QUJD'}=`]) {
      expect(refusal(bad).message).toMatch(/must be whsec_ .*\(this is not base64\)/);
    }
    for (const n of [MIN_SECRET_BYTES - 1, MAX_SECRET_BYTES + 1]) {
      const secret = generateSigningSecret(n);
      expect(refusal(secret).message).toContain(`(this decodes to ${n})`);
    }
  });

  it('throws a SkywatchError naming the field, never the value (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 12, maxLength: 120 }), (secret) => {
        let error: unknown;
        try {
          parseSigningSecret(secret, 'webhookSigningSecretPrevious');
        } catch (e) {
          error = e;
        }
        if (error === undefined) return;
        expect(error).toBeInstanceOf(SkywatchError);
        expect(error).toMatchObject({
          name: 'SigningSecretError',
          field: 'webhookSigningSecretPrevious',
        });
        expect((error as Error).message.startsWith('webhookSigningSecretPrevious ')).toBe(true);
        expect((error as Error).message).not.toContain(secret);
      }),
      { numRuns: 300 },
    );
  });
});
