import fc from 'fast-check';

/**
 * Refused webhook deliveries for the fuzz suite. Each one is a valid delivery with exactly one
 * thing broken, and says what the webhook must answer: the status, the error code, and the
 * field or words its message must name.
 */
export interface Refused {
  category: string;
  body: string;
  /** The headers besides Content-Type (the webhook-* ones); filled in by the signer when {}. */
  headers: Record<string, string>;
  /** Content-Type to send. @default 'application/json' */
  contentType?: string;
  status: number;
  error: string;
  /** The field the answer must name (`field`, and the start of `message`). */
  field?: string;
  /** Text the message must contain. */
  mentions?: string;
}

export type Json = Record<string, unknown>;
/** Field → kind of value it takes, to build values of the wrong type. */
const CUSTOMER_FIELDS: Record<string, 'text' | 'nullableText' | 'number' | 'boolean'> = {
  firstName: 'text',
  lastName: 'text',
  address1: 'text',
  address2: 'nullableText',
  city: 'text',
  postalCode: 'text',
  state: 'text',
  country: 'text',
  email: 'text',
  companyName: 'text',
  companyTypeId: 'number',
  externalCustomerKey: 'text',
  optIn: 'boolean',
};
const REQUIRED = ['firstName', 'lastName', 'address1', 'city', 'postalCode', 'country', 'email'];

function wrongValue(kind: string): fc.Arbitrary<unknown> {
  const others = [
    fc.integer(),
    fc.boolean(),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
    fc.string({ maxLength: 10 }),
    fc.constant(null),
  ];
  if (kind === 'text') return fc.oneof(...others.filter((_, i) => i !== 4));
  if (kind === 'nullableText') return fc.oneof(...others.filter((_, i) => i !== 4 && i !== 5));
  if (kind === 'number') return fc.oneof(...others.filter((_, i) => i !== 0));
  return fc.oneof(...others.filter((_, i) => i !== 1));
}

function set(body: Json, path: string[], value: unknown): Json {
  const copy = structuredClone(body);
  let target: Json = copy;
  for (const p of path.slice(0, -1)) target = target[p] as Json;
  const last = path.at(-1) ?? '';
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}

// Built once: a stringMatching arbitrary costs milliseconds to build, and schemaBreak runs for
// every delivery.
const EMAIL_LOCAL_PART = fc.stringMatching(/^[a-z]{1,10}$/);
const EMAIL_DOMAIN = fc.stringMatching(/^[a-z]{1,10}\.[a-z]{2,3}$/);

const who = (body: Json) =>
  fc.constantFrom(...(body.reseller ? ['shipping', 'reseller'] : ['shipping']));

const invalid = (field: string, mutated: Json, mentions?: string): Refused => ({
  category: '',
  body: JSON.stringify(mutated),
  headers: {},
  status: 400,
  error: 'invalid_request',
  field,
  ...(mentions ? { mentions } : {}),
});

/** Body mutations that break the schema in exactly one place. */
export function schemaBreak(body: Json): fc.Arbitrary<Refused & { category: string }> {
  const tag = (category: string) => (r: Refused) => ({ ...r, category });
  const fields = Object.keys(CUSTOMER_FIELDS);
  return fc.oneof(
    fc
      .tuple(who(body), fc.constantFrom(...fields))
      .chain(([c, f]) =>
        wrongValue(CUSTOMER_FIELDS[f] ?? 'text').map((v) =>
          invalid(`${c}.${f}`, set(body, [c, f], v)),
        ),
      )
      .map(tag('wrong type')),
    wrongValue('text')
      .filter((v) => v !== null)
      .map((v) => invalid('vendorOrderCode', set(body, ['vendorOrderCode'], v)))
      .map(tag('wrong type')),
    fc
      .oneof(fc.array(fc.string(), { maxLength: 2 }), fc.string(), fc.integer(), fc.constant(null))
      .map((v) => invalid('shipping', set(body, ['shipping'], v)))
      .map(tag('wrong type')),
    fc
      .tuple(
        who(body),
        fc.oneof(
          fc.string({ maxLength: 6 }).filter((s) => !/^[A-Z]{2}$/.test(s)),
          fc.constantFrom('gb', 'G', 'GBR', 'U.S.', ' FR', 'de'),
          // Withdrawn, exceptionally reserved and user-assigned codes ICU still names.
          fc.constantFrom('UK', 'DD', 'SU', 'YU', 'ZR', 'CS', 'TP', 'AN', 'XA', 'XB', 'XK', 'EU'),
        ),
      )
      .map(([c, v]) => invalid(`${c}.country`, set(body, [c, 'country'], v)))
      .map(tag('bad country')),
    fc
      .tuple(who(body), EMAIL_LOCAL_PART, EMAIL_DOMAIN, fc.nat(5))
      .map(([c, local, domain, shape]) => {
        const bad = [
          `${local}${domain}`,
          `${local}@`,
          `@${domain}`,
          `${local}@@${domain}`,
          `${local} @${domain}`,
          `${local}@${domain}@${domain}`,
        ][shape] as string;
        return invalid(`${c}.email`, set(body, [c, 'email'], bad));
      })
      .map(tag('bad email')),
    fc
      .constant(invalid('shipping', set(body, ['shipping'], undefined)))
      .map(tag('missing shipping')),
    fc
      .tuple(who(body), fc.constantFrom(...REQUIRED))
      .map(([c, f]) => invalid(`${c}.${f}`, set(body, [c, f], undefined)))
      .map(tag('missing field')),
    fc
      .tuple(
        fc.constantFrom('', 'shipping'),
        fc.oneof(
          fc.string({ minLength: 1, maxLength: 12 }),
          fc.constantFrom('__proto__', 'constructor', 'toString', 'coupon', 'Shipping'),
        ),
        fc.jsonValue({ maxDepth: 1 }),
      )
      .filter(
        ([at, key]) =>
          !Object.keys(
            at ? CUSTOMER_FIELDS : { vendorOrderCode: 0, shipping: 0, reseller: 0 },
          ).includes(key),
      )
      .map(([at, key, value]) => {
        // Computed keys make own properties, even __proto__, so JSON.stringify keeps them.
        const text = JSON.stringify(
          at
            ? { ...body, shipping: { ...(body.shipping as Json), [key]: 0 } }
            : { ...body, [key]: 0 },
        );
        // The value goes in by text so that keys like __proto__ stay own JSON keys.
        const raw = text.replace(
          `${JSON.stringify(key)}:0`,
          `${JSON.stringify(key)}:${JSON.stringify(value ?? null)}`,
        );
        return { ...invalid(at || '(body)', {}, JSON.stringify(key)), body: raw };
      })
      .map(tag('unknown field')),
    fc
      .tuple(
        who(body),
        fc.constantFrom('firstName', 'lastName', 'address1', 'city', 'postalCode'),
        fc.array(fc.constantFrom(...INVISIBLE), { minLength: 1, maxLength: 8 }),
      )
      .map(([c, f, chars]) => invalid(`${c}.${f}`, set(body, [c, f], chars.join('')), 'blank'))
      .map(tag('invisible name')),
    fc
      .constantFrom('.', '..')
      .map((v) => invalid('vendorOrderCode', set(body, ['vendorOrderCode'], v)))
      .map(tag('dot path')),
    fc
      // Up to 2,500 keys, as in the issue, still under the size limit.
      .integer({ min: 6, max: 2500 })
      .map((n) => {
        const junk = Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 0]));
        return invalid('(body)', { ...body, ...junk }, `and ${n - 5} more`);
      })
      .map(tag('many unknown keys')),
  );
}

/** Characters that show nothing, alone or together. */
const INVISIBLE = [
  ' ',
  '\u200b',
  '\u200c',
  '\u200d',
  '\ufeff',
  '\u3164',
  '\u2800',
  '\u00ad',
  '\u2060',
  '\u00a0',
  '\u3000',
  '\t',
];
