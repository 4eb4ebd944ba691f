import type { Product } from '../../support/product.js';
import { signed } from '../../support/webhook-signing.js';

/** Deliveries to the real cart-customer-webhook handler of a running product. */
export const customer = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  address1: '12 St James Square',
  address2: null,
  city: 'London',
  postalCode: 'SW1Y 4JH',
  country: 'GB',
  email: 'ada@example.com',
  optIn: true,
};

export interface Response {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export interface DeliveryOptions {
  /** The webhook-id; a fresh one when not given. */
  id?: string;
  at?: number;
  secret?: string;
  type?: string;
  extra?: Record<string, string>;
}

export function webhookDeliveries(product: Product) {
  const delivery = (body: string, options: DeliveryOptions = {}) => {
    const headers: Record<string, string> = {
      'content-type': options.type ?? 'application/json',
      ...signed(options.secret ?? product.webhookSecret, body, options),
      ...options.extra,
    };
    return { requestContext: { http: { method: 'POST' } }, headers, body, isBase64Encoded: false };
  };
  /** The delivery with its body as bytes, base64-encoded as API Gateway passes binary bodies. */
  const encodedDelivery = (bytes: Buffer, signedOver: string | Buffer = bytes) => ({
    requestContext: { http: { method: 'POST' } },
    headers: { 'content-type': 'application/json', ...signed(product.webhookSecret, signedOver) },
    body: bytes.toString('base64'),
    isBase64Encoded: true,
  });
  const run = (event: unknown) => product.run<Response>('cart-customer-webhook', event);
  const send = async (body: string, options?: DeliveryOptions) => {
    const res = await run(delivery(body, options));
    return { ...res, json: JSON.parse(res.body) as Record<string, unknown> };
  };
  const cartCalls = () => product.emulator.stats().byOperation['cart.customers'] ?? 0;
  const cartOf = (type: string, n = 0) =>
    product.emulator.info().carts.filter((c) => c.type === type)[n]?.vendorOrderCode ?? '';
  return { delivery, encodedDelivery, run, send, cartCalls, cartOf };
}
