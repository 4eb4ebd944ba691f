import * as z from 'zod';

const KEYCODE = /^[A-Z0-9]{4}(-[A-Z0-9]{4}){4}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** How a message quotes the value it refuses: strings in quotes, the rest as JSON. */
export const show = (value: unknown): string =>
  typeof value === 'string' ? `'${value}'` : String(JSON.stringify(value));

/**
 * One message for every issue a field can raise (wrong type, too small, too large), so an
 * operator reads what the setting accepts and what it got, whichever check refused it.
 */
const says = (problem: string) => ({
  error: (issue: { input?: unknown }) => `${problem}; got ${show(issue.input)}`,
});

/** An https URL of the service, required, trailing slashes dropped. */
export const httpsUrl = () => {
  const required = {
    error: (issue: { input?: unknown }) =>
      `is required: the https URL of the service (got ${show(issue.input)})`,
  };
  return z
    .string(required)
    .min(1, required)
    .refine((value) => URL.canParse(value), {
      ...says('must be an absolute https URL'),
      abort: true,
    })
    .refine(
      (value) => new URL(value).protocol === 'https:',
      says('must use https (tokens travel on it)'),
    )
    .transform((value) => value.replace(/\/+$/, ''));
};

const keycode = (value: string) => value.trim().toUpperCase();

/** GSM keycodes, at least one, upper-cased; a malformed or repeated one is named by position. */
export const keycodes = () =>
  z
    .array(
      z
        .string(says('must be a keycode like ABCD-EFGH-IJKL-MNOP-QRST'))
        .refine(
          (value) => KEYCODE.test(keycode(value)),
          says('must be a keycode like ABCD-EFGH-IJKL-MNOP-QRST'),
        ),
      says('must list at least one GSM keycode'),
    )
    .min(1, says('must list at least one GSM keycode'))
    .superRefine(
      (keys, ctx) => {
        const seen = new Set<string>();
        keys.forEach((value, index) => {
          if (typeof value !== 'string' || !KEYCODE.test(keycode(value))) return;
          const key = keycode(value);
          if (seen.has(key))
            ctx.addIssue({
              code: 'custom',
              path: [index],
              message: `repeats ${key}`,
              input: value,
            });
          seen.add(key);
        });
      },
      { when: (payload) => Array.isArray(payload.value) },
    )
    .transform((keys) => keys.map(keycode));

/** An e-mail address, or nothing (an empty string counts as nothing). */
export const optionalEmail = () =>
  z
    .string(says('must be an e-mail address'))
    .refine((value) => value === '' || EMAIL.test(value), says('must be an e-mail address'))
    .optional()
    .transform((value) => value || undefined);

/** A whole number within bounds, and its default when unset. */
export const int = (min: number, max: number, fallback: number) => {
  const message = says(`must be an integer from ${min} to ${max}`);
  return z.int(message).min(min, message).max(max, message).default(fallback);
};

/** A finite number within bounds, and its default when unset. */
export const number = (min: number, max: number, fallback: number) => {
  const message = says(`must be a number from ${min} to ${max}`);
  return z.number(message).min(min, message).max(max, message).default(fallback);
};

export const bool = (fallback: boolean) =>
  z.boolean(says('must be true or false')).default(fallback);

/** One of a fixed list of values, and its default when unset. */
export const oneOf = <const T extends readonly (string | number)[]>(
  allowed: T,
  fallback: T[number],
) =>
  z
    .custom<T[number]>(
      (value) => allowed.includes(value as T[number]),
      says(`must be one of ${allowed.join(', ')}`),
    )
    .default(fallback);

const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
// CloudFront takes viewer certificates only from ACM in us-east-1.
const CLOUDFRONT_CERTIFICATE = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]+$/;

/** A DNS name such as `reports.example.com`, or nothing. */
export const optionalDomainName = () =>
  z
    .string(says('must be a domain name such as reports.example.com'))
    .transform((value) => value.trim().toLowerCase().replace(/\.$/, ''))
    .refine(
      (value) => value === '' || DOMAIN_NAME.test(value),
      says('must be a domain name such as reports.example.com'),
    )
    .optional()
    .transform((value) => value || undefined);

/** An ACM certificate ARN in us-east-1, the only region CloudFront reads certificates from. */
export const optionalCertificateArn = () =>
  z
    .string(says('must be an ACM certificate ARN in us-east-1'))
    .refine(
      (value) => value === '' || CLOUDFRONT_CERTIFICATE.test(value),
      says(
        'must be an ACM certificate ARN in us-east-1 (CloudFront reads certificates there only)',
      ),
    )
    .optional()
    .transform((value) => value || undefined);

/** A UTC time of day, `HH:MM`, and its default when unset. */
export const timeOfDay = (fallback: string) =>
  z
    .string(says('must be a UTC time of day as HH:MM (00:00–23:59)'))
    .regex(TIME_OF_DAY, says('must be a UTC time of day as HH:MM (00:00–23:59)'))
    .default(fallback);
