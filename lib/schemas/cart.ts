import { isCountryCode } from '../validation/country.js';
import { isVisiblyBlank } from '../validation/text.js';
import * as z from '../zod.js';
import { Int } from './common.js';
import type { Tolerant } from './tolerant.js';

/**
 * Request customer (2.8). Required fields per docs/service-choices.md; strings at most 256
 * characters; Country ISO 3166-1 alpha-2 upper case; a plain `local@domain.tld` e-mail.
 */
const Text = z.string().check(z.maxLength(256));
const Required = Text.check(
  z.refine((v) => !isVisiblyBlank(v), 'must not be blank (invisible characters do not count)'),
);
export const CustomerInput = z.lazy(() =>
  z.looseObject({
    FirstName: Required,
    LastName: Required,
    Address1: Required,
    Address2: z.optional(z.nullable(Text)),
    City: Required,
    PostalCode: Required,
    State: z.optional(Text),
    Country: z
      .string()
      .check(z.refine(isCountryCode, 'must be an assigned ISO 3166-1 alpha-2 code in upper case')),
    CustomerEmail: Text.check(z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address')),
    CompanyName: z.optional(Text),
    CompanyTypeId: z.optional(Int.check(z.minimum(0))),
    ExternalCustomerKey: z.optional(Text),
    OptIn: z.optional(z.boolean()),
  }),
);
export type CustomerInput = z.input<typeof CustomerInput>;

/** AddCustomersToCartRequestServiceModel (4.10 body). */
export const AddCustomersToCartRequest = z.lazy(() =>
  z.looseObject({
    Shipping: CustomerInput,
    Reseller: z.optional(CustomerInput),
  }),
);
export type AddCustomersToCartRequest = z.input<typeof AddCustomersToCartRequest>;

/** Response customer (2.8): the request fields without CompanyTypeId, plus type and VatId. */
export const CustomerRecord = z.lazy(() =>
  z.looseObject({
    FirstName: z.string(),
    LastName: z.string(),
    Address1: z.string(),
    Address2: z.nullable(z.string()),
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
  }),
);
export type CustomerRecord = z.infer<typeof CustomerRecord>;

/** AddCustomersToCartResponseServiceModel. */
export const AddCustomersToCartResponse = z.lazy(() =>
  z.looseObject({
    Billing: CustomerRecord,
    Shipping: CustomerRecord,
    Reseller: z.optional(CustomerRecord),
  }),
);
/** As the tolerant reader delivers it: any field may be absent (lib/schemas/tolerant.ts). */
export type AddCustomersToCartResponse = Tolerant<z.infer<typeof AddCustomersToCartResponse>>;
