// Refused deliveries for the webhook fuzz suite: broken in their signature, their size or their
// JSON here; broken against the request schema in webhook-body-breaks.ts.
import fc from 'fast-check';
import { sign } from '../../../functions/cart-customer-webhook/signature.js';
import { type Json, type Refused, schemaBreak } from './webhook-body-breaks.js';

export type { Refused };

export const SIGNATURE = 'skywatch-signature';
export const MAX_BODY_BYTES = 32 * 1024;
const TOLERANCE_SECONDS = 300;

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

/** Any refused delivery, signed with `secret` unless the category is about the signature. */
export function refusedDelivery(
  secret: string,
  cart: string,
  now: () => number,
): fc.Arbitrary<Refused> {
  const seconds = () => Math.floor(now() / 1000);
  const signed = (r: Refused): Refused => ({ ...r, signature: sign(secret, seconds(), r.body) });
  const sig = { status: 401, field: SIGNATURE };
  return validRequest(cart).chain((request) => {
    const body = JSON.parse(JSON.stringify(request)) as Json;
    const text = JSON.stringify(body);
    return fc.oneof(
      { weight: 4, arbitrary: schemaBreak(body).map(signed) },
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
              signature: '',
              status: 400,
              error: 'malformed_json',
              mentions: 'JSON',
            }),
          ),
      },
      {
        weight: 1,
        arbitrary: fc.constant<Refused>({
          category: 'unsigned',
          body: text,
          signature: undefined,
          ...sig,
          error: 'signature_missing',
          mentions: SIGNATURE,
        }),
      },
      {
        weight: 1,
        arbitrary: fc
          .string({ minLength: 16, maxLength: 40 })
          .filter((s) => s !== secret)
          .map((wrong) => ({
            category: 'wrong secret',
            body: text,
            signature: sign(wrong, seconds(), text),
            ...sig,
            error: 'signature_mismatch',
            mentions: 'does not match',
          })),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(' ', '\n', '{}').map((extra) => ({
          category: 'tampered body',
          body: `${text}${extra}`,
          signature: sign(secret, seconds(), text),
          ...sig,
          error: 'signature_mismatch',
          mentions: 'does not match',
        })),
      },
      {
        weight: 1,
        arbitrary: fc
          .oneof(
            fc.string({ minLength: 1, maxLength: 80 }),
            fc.constantFrom(
              't=,v1=',
              'v1=deadbeef',
              `t=${seconds()}`,
              `t=abc,v1=${'0'.repeat(64)}`,
            ),
          )
          .filter((h) => h.trim() !== '')
          .map((header) => ({
            category: 'malformed signature',
            body: text,
            signature: header,
            ...sig,
            error: 'signature_malformed',
            mentions: SIGNATURE,
          })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.integer({ min: TOLERANCE_SECONDS + 1, max: 30 * 86_400 }), fc.boolean())
          .map(([age, future]) => ({
            category: 'replayed',
            body: text,
            signature: sign(secret, seconds() + (future ? age : -age), text),
            ...sig,
            error: 'signature_expired',
            mentions: 'tolerance',
          })),
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
              signature: undefined,
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
