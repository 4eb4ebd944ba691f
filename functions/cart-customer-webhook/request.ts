import * as z from 'zod';
import { type AddCustomersToCartRequest, isCountryCode } from '../../lib/index.js';

/**
 * What the e-commerce flow posts: the cart's vendor order code and its customers in camelCase.
 * Unknown fields are refused so a typo is an error, not a silently dropped value.
 */
const text = (max = 256) => z.string().trim().min(1).max(max);

export const WebhookCustomer = z
  .object({
    firstName: text(),
    lastName: text(),
    address1: text(),
    address2: z.string().max(256).nullable().optional(),
    city: text(),
    postalCode: text(32),
    state: z.string().max(256).optional(),
    country: z
      .string()
      .refine(isCountryCode, 'must be an assigned ISO 3166-1 alpha-2 country code in upper case'),
    email: z.email().max(256),
    companyName: z.string().max(256).optional(),
    companyTypeId: z.number().int().min(0).optional(),
    externalCustomerKey: z.string().max(256).optional(),
    optIn: z.boolean().optional(),
  })
  .strict();
export type WebhookCustomer = z.infer<typeof WebhookCustomer>;

export const WebhookRequest = z
  .object({
    vendorOrderCode: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1–64 letters, digits, ".", "_" or "-"'),
    shipping: WebhookCustomer,
    reseller: WebhookCustomer.optional(),
  })
  .strict();
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
