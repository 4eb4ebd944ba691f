// Refused deliveries for the webhook fuzz suite: broken in their signature headers, their size,
// their media type, their JSON or their idempotency key here; against the request schema in
// webhook-body-breaks.ts.
import fc from 'fast-check';
import { webhookHeaders } from '../../../lib/webhooks/index.js';
import { type Json, type Refused, schemaBreak } from './webhook-body-breaks.js';
import { type Answered, headerBreak } from './webhook-header-breaks.js';

export type { Answered, Refused };

export const MAX_BODY_BYTES = 32 * 1024;

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
  return validRequest(cart).chain((request) => {
    const body = JSON.parse(JSON.stringify(request)) as Json;
    const text = JSON.stringify(body);
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
      { weight: 10, arbitrary: headerBreak(secret, text, headersFor, answered, seconds) },
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
