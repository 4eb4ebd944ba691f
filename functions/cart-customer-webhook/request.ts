import { type AddCustomersToCartRequest, isCountryCode } from '../../lib/index.js';
import * as z from '../../lib/zod.js';

/**
 * What the e-commerce flow posts: the cart's vendor order code and its customers in camelCase.
 * Unknown fields are refused so a typo is an error, not a silently dropped value.
 */
const text = (max = 256) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));
const upTo256 = z.string().check(z.maxLength(256));

export const WebhookCustomer = z.strictObject({
  firstName: text(),
  lastName: text(),
  address1: text(),
  address2: z.optional(z.nullable(upTo256)),
  city: text(),
  postalCode: text(32),
  state: z.optional(upTo256),
  country: z
    .string()
    .check(
      z.refine(isCountryCode, 'must be an assigned ISO 3166-1 alpha-2 country code in upper case'),
    ),
  email: z.email().check(z.maxLength(256)),
  companyName: z.optional(upTo256),
  companyTypeId: z.optional(z.number().check(z.int(), z.minimum(0))),
  externalCustomerKey: z.optional(upTo256),
  optIn: z.optional(z.boolean()),
});
export type WebhookCustomer = z.infer<typeof WebhookCustomer>;

export const WebhookRequest = z.strictObject({
  vendorOrderCode: z
    .string()
    .check(z.regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1–64 letters, digits, ".", "_" or "-"')),
  shipping: WebhookCustomer,
  reseller: z.optional(WebhookCustomer),
});
export type WebhookRequest = z.infer<typeof WebhookRequest>;

function toService(c: WebhookCustomer) {
  return {
    FirstName: c.firstName,
    LastName: c.lastName,
    Address1: c.address1,
    Address2: c.address2 ?? null,
    City: c.city,
    PostalCode: c.postalCode,
    State: c.state ?? '',
    Country: c.country,
    CustomerEmail: c.email,
    CompanyName: c.companyName ?? '',
    ...(c.companyTypeId === undefined ? {} : { CompanyTypeId: c.companyTypeId }),
    ExternalCustomerKey: c.externalCustomerKey ?? '',
    OptIn: c.optIn ?? false,
  };
}

/** The 4.10 request body for a webhook request. */
export function toCartRequest(request: WebhookRequest): AddCustomersToCartRequest {
  return {
    Shipping: toService(request.shipping),
    ...(request.reseller ? { Reseller: toService(request.reseller) } : {}),
  } as AddCustomersToCartRequest;
}
