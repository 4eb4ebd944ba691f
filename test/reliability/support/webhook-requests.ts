// Refused deliveries for the webhook fuzz suite: broken in their signature headers, their size,
// their media type, their JSON or their idempotency key here; against the request schema in
// webhook-body-breaks.ts.
import fc from 'fast-check';
import { webhookHeaders } from '../../../lib/webhooks/index.js';
import { type Json, type Refused, schemaBreak } from './webhook-body-breaks.js';

export type { Refused };

export const MAX_BODY_BYTES = 32 * 1024;
const TOLERANCE_SECONDS = 300;
const ID = 'webhook-id';
const TIMESTAMP = 'webhook-timestamp';
const SIGNATURE = 'webhook-signature';
const V1_SHAPE = /^v1,[A-Za-z0-9+/]{43}=$/;

const letters = (max: number) => fc.stringMatching(new RegExp(`^[A-Za-z][A-Za-z ]{0,${max}}$`));

const customer = fc.record({
  firstName: letters(20),
  lastName: letters(20),
  address1: letters(40),
  city: letters(20),
  postalCode: fc.stringMatching(/^[A-Z0-9]{3,8}$/),
  country: fc.constantFrom('GB', 'FR', 'DE', 'US', 'NL'),
  email: fc.constantFrom('ada@example.com', 'ops@shop.example.org', 'x.y@mail.example.net'),
  optIn: fc.boolean(),
});

/** A valid request body (which the webhook would accept and send to the service). */
export const validRequest = (cart: string) =>
  fc.record({
    vendorOrderCode: fc.constant(cart),
    shipping: customer,
    reseller: fc.option(customer, { nil: undefined }),
  });

/** A delivery the webhook has already answered: its id and the exact body it was for. */
export interface Answered {
  id: string;
  body: string;
}

/**
 * Any refused delivery, signed with `secret` under a fresh webhook-id unless the category is
 * about the signature or the key.
 */
export function refusedDelivery(
  secret: string,
  cart: string,
  now: () => number,
  answered: Answered,
): fc.Arbitrary<Refused> {
  const seconds = () => Math.floor(now() / 1000);
  let serial = 0;
  const freshId = () => `msg_fuzz_${Date.now()}_${serial++}`;
  const headersFor = (body: string, options: { id?: string; at?: number; key?: string } = {}) =>
    webhookHeaders([options.key ?? secret], {
      id: options.id ?? freshId(),
      timestamp: options.at ?? seconds(),
      body,
    });
  const signed = (r: Refused): Refused => ({ ...r, headers: headersFor(r.body) });
  const sig = (header: string, error: string, mentions: string) => ({
    status: 401,
    field: header,
    error,
    mentions,
  });
  return validRequest(cart).chain((request) => {
    const body = JSON.parse(JSON.stringify(request)) as Json;
    const text = JSON.stringify(body);
    const without = (name: string): Record<string, string> => {
      const all: Record<string, string> = headersFor(text);
      const { [name]: _gone, ...rest } = all;
      return rest;
    };
    return fc.oneof(
      { weight: 8, arbitrary: schemaBreak(body).map(signed) },
      {
        weight: 1,
        arbitrary: fc
          .integer({ min: 1, max: text.length - 1 })
          .chain((cut) =>
            fc.constantFrom(
              text.slice(0, cut),
              `${text.slice(0, cut)}}}`,
              text.replace(':', ''),
              `${text},`,
            ),
          )
          .filter((t) => {
            try {
              JSON.parse(t);
              return false;
            } catch {
              return true;
            }
          })
          .map((t) =>
            signed({
              category: 'malformed json',
              body: t,
              headers: {},
              status: 400,
              error: 'malformed_json',
              mentions: 'JSON',
            }),
          ),
      },
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
        arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/).map((id) => {
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
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(
            'text/plain',
            'application/json-patch+json',
            'application/merge-patch+json',
            'application/json; charset=utf-16',
            'application/json; charset=iso-8859-1',
            'application/jsonp',
            'application/x-www-form-urlencoded',
            '',
          )
          .map((contentType) =>
            signed({
              category: 'bad media type',
              body: text,
              headers: {},
              contentType,
              status: 415,
              error: 'unsupported_media_type',
              field: 'Content-Type',
              mentions: 'application/json',
            }),
          ),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.constantFrom('x', 'é', '😀', ' '),
            fc.integer({ min: 1, max: 40_000 }),
            fc.boolean(),
          )
          .map(([filler, extra, sign_]) => {
            const unit = Buffer.byteLength(filler);
            const pad = filler.repeat(Math.ceil((MAX_BODY_BYTES + extra) / unit));
            const big = JSON.stringify({
              ...body,
              shipping: { ...(body.shipping as Json), city: pad },
            });
            const r: Refused = {
              category: 'oversized',
              body: big,
              headers: {},
              status: 413,
              error: 'payload_too_large',
              field: '(body)',
              mentions: String(MAX_BODY_BYTES),
            };
            return sign_ ? signed(r) : r;
          }),
      },
    );
  });
}
