import fc from 'fast-check';
import type { Refused } from './webhook-body-breaks.js';

/**
 * Refused deliveries broken in their Standard Webhooks headers or their key, for the fuzz
 * suite: a header missing or malformed, a wrong secret, a body changed after signing, a stale
 * timestamp, a captured delivery under another id, an answered id with another payload.
 */
const TOLERANCE_SECONDS = 300;
const ID = 'webhook-id';
const TIMESTAMP = 'webhook-timestamp';
const SIGNATURE = 'webhook-signature';
const V1_SHAPE = /^v1,[A-Za-z0-9+/]{43}=$/;
/** Built once (a stringMatching arbitrary costs milliseconds to build, per delivery here). */
const WEBHOOK_ID = fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/);

/** A delivery the webhook has already answered: its id and the exact body it was for. */
export interface Answered {
  id: string;
  body: string;
}

type HeadersFor = (
  body: string,
  options?: { id?: string; at?: number; key?: string },
) => Record<string, string>;

const sig = (header: string, error: string, mentions: string) => ({
  status: 401,
  field: header,
  error,
  mentions,
});

export function headerBreak(
  secret: string,
  text: string,
  headersFor: HeadersFor,
  answered: Answered,
  seconds: () => number,
): fc.Arbitrary<Refused> {
  const without = (name: string): Record<string, string> => {
    const { [name]: _gone, ...rest } = headersFor(text);
    return rest;
  };
  return fc.oneof(
    {
      weight: 1,
      arbitrary: fc.constantFrom(SIGNATURE, ID, TIMESTAMP).map((header) => ({
        category: 'unsigned',
        body: text,
        headers: without(header),
        ...sig(header, 'signature_missing', header),
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          fc.string({ minLength: 1, maxLength: 300 }),
          fc.constantFrom('msg.1', 'a b', 'x'.repeat(256), 'é', 'msg\t1'),
        )
        .filter((id) => !/^[\x21-\x2d\x2f-\x7e]{1,255}$/.test(id))
        .map((id) => ({
          category: 'malformed id',
          body: text,
          headers: { ...headersFor(text), [ID]: id },
          ...sig(ID, 'signature_malformed', ID),
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          fc.string({ minLength: 1, maxLength: 20 }),
          fc.constantFrom('-1', '1.5', '+170', '0x10', '1e9', `${seconds()} `),
        )
        .filter((t) => !/^\d{1,12}$/.test(t))
        .map((t) => ({
          category: 'malformed timestamp',
          body: text,
          headers: { ...headersFor(text), [TIMESTAMP]: t },
          ...sig(TIMESTAMP, 'signature_malformed', TIMESTAMP),
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ minLength: 24, maxLength: 64 })
        .map((bytes) => `whsec_${Buffer.from(bytes).toString('base64')}`)
        .filter((s) => s !== secret)
        .map((wrong) => ({
          category: 'wrong secret',
          body: text,
          headers: headersFor(text, { key: wrong }),
          ...sig(SIGNATURE, 'signature_mismatch', 'does not match'),
        })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(' ', '\n', '{}').map((extra) => ({
        category: 'tampered body',
        body: `${text}${extra}`,
        headers: headersFor(text),
        ...sig(SIGNATURE, 'signature_mismatch', 'does not match'),
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          fc.string({ minLength: 1, maxLength: 80 }),
          fc.constantFrom(
            'v1,',
            `t=${seconds()},v1=${'ab'.repeat(32)}`,
            `v1,${'AB'.repeat(32)}`,
            'v1a,hnO3f9T8Ytu9HwrXslvumlUpqtNVqkhqw/enGzPCXe5BdqzCInXqYXFymVJaA7AZdpXwVLPo3mNl8EM+m7TBAg==',
            `v2,${Buffer.alloc(32).toString('base64')}`,
            `v1,${Buffer.alloc(31).toString('base64')}`,
          ),
        )
        .filter((h) => h.trim() !== '' && !h.split(' ').some((e) => V1_SHAPE.test(e)))
        .map((header) => ({
          category: 'malformed signature',
          body: text,
          headers: { ...headersFor(text), [SIGNATURE]: header },
          ...sig(SIGNATURE, 'signature_malformed', SIGNATURE),
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: TOLERANCE_SECONDS + 1, max: 30 * 86_400 }), fc.boolean())
        .map(([age, future]) => ({
          category: 'replayed',
          body: text,
          headers: headersFor(text, { at: seconds() + (future ? age : -age) }),
          ...sig(TIMESTAMP, 'signature_expired', 'tolerance'),
        })),
    },
    {
      weight: 1,
      // A captured delivery sent again under another id: the id is signed.
      arbitrary: WEBHOOK_ID.map((id) => {
        const captured = headersFor(text);
        return {
          category: 're-keyed',
          body: text,
          headers: { ...captured, [ID]: captured[ID] === id ? `${id}x` : id },
          ...sig(SIGNATURE, 'signature_mismatch', 'does not match'),
        };
      }),
    },
    {
      weight: 2,
      // The id of a delivery already answered, properly signed, with another payload.
      arbitrary: fc.constant(text === answered.body ? `${text} ` : text).map((other) => ({
        category: 'reused id',
        body: other,
        headers: headersFor(other, { id: answered.id }),
        status: 422,
        error: 'idempotency_key_reused',
        field: ID,
        mentions: JSON.stringify(answered.id),
      })),
    },
  );
}
