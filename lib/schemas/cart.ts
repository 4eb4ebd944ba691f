import * as z from 'zod';
import { isCountryCode } from '../validation/country.js';
import { Int } from './common.js';

/**
 * Request customer (2.8). Required fields per docs/service-choices.md; strings at most 256
 * characters; Country ISO 3166-1 alpha-2 upper case; a plain `local@domain.tld` e-mail.
 */
const Text = z.string().max(256);
export const CustomerInput = z.looseObject({
  FirstName: Text.min(1),
  LastName: Text.min(1),
  Address1: Text.min(1),
  Address2: Text.nullable().optional(),
  City: Text.min(1),
  PostalCode: Text.min(1),
  State: Text.optional(),
  Country: z
    .string()
    .refine(isCountryCode, 'must be an assigned ISO 3166-1 alpha-2 code in upper case'),
  CustomerEmail: Text.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address'),
  CompanyName: Text.optional(),
  CompanyTypeId: Int.min(0).optional(),
  ExternalCustomerKey: Text.optional(),
  OptIn: z.boolean().optional(),
});
export type CustomerInput = z.input<typeof CustomerInput>;

/** AddCustomersToCartRequestServiceModel (4.10 body). */
export const AddCustomersToCartRequest = z.looseObject({
  Shipping: CustomerInput,
  Reseller: CustomerInput.optional(),
});
export type AddCustomersToCartRequest = z.input<typeof AddCustomersToCartRequest>;

/** Response customer (2.8): the request fields without CompanyTypeId, plus type and VatId. */
export const CustomerRecord = z.looseObject({
  FirstName: z.string(),
  LastName: z.string(),
  Address1: z.string(),
  Address2: z.string().nullable(),
  City: z.string(),
  PostalCode: z.string(),
  State: z.string(),
  Country: z.string(),
  CustomerEmail: z.string(),
  CompanyName: z.string(),
  ExternalCustomerKey: z.string(),
  OptIn: z.boolean(),
  VatId: z.string(),
  /** 1 billing, 2 shipping, 3 reseller. */
  CustomerTypeId: Int,
  CustomerTypeDescription: z.string(),
});
export type CustomerRecord = z.infer<typeof CustomerRecord>;

/** AddCustomersToCartResponseServiceModel. */
export const AddCustomersToCartResponse = z.looseObject({
  Billing: CustomerRecord,
  Shipping: CustomerRecord,
  Reseller: CustomerRecord.optional(),
});
export type AddCustomersToCartResponse = z.infer<typeof AddCustomersToCartResponse>;
