import { type AddCustomersToCartRequest, isCountryCode, isVisiblyBlank } from '../../lib/index.js';
import * as z from '../../lib/zod.js';

/**
 * What the e-commerce flow posts: the cart's vendor order code and its customers in camelCase.
 * Unknown fields are refused so a typo is an error, not a silently dropped value.
 */
const text = (max = 256) =>
  z.string().check(
    z.trim(),
    z.refine((v) => !isVisiblyBlank(v), 'must not be blank (invisible characters do not count)'),
    z.maxLength(max),
  );
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
      z.refine(
        isCountryCode,
        'must be an assigned ISO 3166-1 alpha-2 country code in upper case (GB, not UK)',
      ),
    ),
  email: z.email().check(z.maxLength(256)),
  companyName: z.optional(upTo256),
  companyTypeId: z.optional(z.number().check(z.int(), z.minimum(0))),
  externalCustomerKey: z.optional(upTo256),
  optIn: z.optional(z.boolean()),
});
export type WebhookCustomer = z.infer<typeof WebhookCustomer>;

export const WebhookRequest = z.strictObject({
  vendorOrderCode: z.string().check(
    z.regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1–64 letters, digits, ".", "_" or "-"'),
    // Either would move the service call up the path, off the cart (see operationPath).
    z.refine((v) => v !== '.' && v !== '..', 'must not be "." or ".."'),
  ),
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

/**
 * `application/json`, optionally with `charset=utf-8`, in any case (RFC 9110 8.3.1). Any other
 * type or charset is refused, not decoded as UTF-8 on the off chance.
 */
const JSON_MEDIA_TYPE =
  /^application\/json[ \t]*(;[ \t]*charset[ \t]*=[ \t]*(utf-8|"utf-8")[ \t]*)?$/i;

export function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType !== undefined && JSON_MEDIA_TYPE.test(contentType);
}

/** Unknown keys named in a refusal, at most; the rest are counted. */
const NAMED_KEYS = 5;
/** Longest key name or message echoed: a refusal is read by people and logged. */
const MAX_KEY = 40;
const MAX_MESSAGE = 300;

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

/**
 * The message of the first issue, short whatever the body: a delivery of thousands of unknown
 * keys names a few and counts the others.
 */
export function issueMessage(issue: z.core.$ZodIssue | undefined): string {
  if (issue?.code === 'unrecognized_keys') {
    const named = issue.keys.slice(0, NAMED_KEYS).map((k) => clip(JSON.stringify(k), MAX_KEY));
    const more = issue.keys.length - named.length;
    const word = issue.keys.length === 1 ? 'key' : 'keys';
    return `unknown ${word} ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`.slice(
      0,
      MAX_MESSAGE,
    );
  }
  return clip(issue?.message ?? 'is invalid', MAX_MESSAGE);
}

/** The path of the first issue, for `field`, as short as the message. */
export function issueField(issue: z.core.$ZodIssue | undefined): string | undefined {
  const path = issue?.path.map((p) => clip(String(p), MAX_KEY)).join('.');
  return path ? clip(path, MAX_MESSAGE) : undefined;
}
