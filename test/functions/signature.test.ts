import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSignature, sign } from '../../functions/cart-customer-webhook/signature.js';

const SECRET = 'whsec-test-0123456789abcdef';
const NOW = 1_780_000_000;

describe('Function: checkSignature', () => {
  it('accepts what sign() produced within the tolerance window', () => {
    expect(
      checkSignature(sign(SECRET, NOW - 10, '{"a":1}'), SECRET, '{"a":1}', NOW, 300),
    ).toBeUndefined();
  });

  it('names what is wrong: missing, malformed, expired, mismatch', () => {
    expect(checkSignature(undefined, SECRET, 'x', NOW, 300)).toBe('missing');
    expect(checkSignature('v1=abc', SECRET, 'x', NOW, 300)).toBe('malformed');
    expect(checkSignature(sign(SECRET, NOW - 301, 'x'), SECRET, 'x', NOW, 300)).toBe('expired');
    expect(checkSignature(sign('other-secret-123456', NOW, 'x'), SECRET, 'x', NOW, 300)).toBe(
      'mismatch',
    );
  });

  it('rejects any change to the body or the timestamp (property)', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.integer({ min: 1, max: 200 }),
        (body, other, shift) => {
          fc.pre(body !== other);
          const header = sign(SECRET, NOW, body);
          expect(checkSignature(header, SECRET, other, NOW, 300)).toBe('mismatch');
          const moved = header.replace(`t=${NOW}`, `t=${NOW - shift}`);
          expect(checkSignature(moved, SECRET, body, NOW, 300)).toBe('mismatch');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws on arbitrary header text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (header) => {
        expect(['missing', 'malformed', 'expired', 'mismatch']).toContain(
          checkSignature(header, SECRET, 'body', NOW, 300),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('signs the raw bytes: a text body and its UTF-8 bytes sign alike (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (body) => {
        expect(sign(SECRET, NOW, Buffer.from(body, 'utf8'))).toBe(sign(SECRET, NOW, body));
      }),
      { numRuns: 200 },
    );
  });

  it('verifies bytes that are not UTF-8 as they are, not as a decoder would repair them (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.integer({ min: 0x80, max: 0xff }),
        (bytes, stray) => {
          // A trailing byte of 0x80 or above makes most bodies invalid UTF-8; the rest are skipped.
          const body = Buffer.concat([Buffer.from(bytes), Buffer.from([stray])]);
          fc.pre(!Buffer.from(body.toString('utf8'), 'utf8').equals(body));
          expect(checkSignature(sign(SECRET, NOW, body), SECRET, body, NOW, 300)).toBeUndefined();
          const repaired = body.toString('utf8');
          expect(checkSignature(sign(SECRET, NOW, repaired), SECRET, body, NOW, 300)).toBe(
            'mismatch',
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
