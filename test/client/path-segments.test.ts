import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SkywatchClient, ValidationError } from '../../lib/index.js';
import { json, type LocalServer, localServer } from '../lib/support/local-server.js';

/**
 * No value given to the client can move a request to another operation: every path segment is
 * validated for its operation and encoded as one segment. A real HTTP server records the path
 * as it arrives (Node does not normalise it); each request must match its operation's route,
 * with the value back, decoded, in its slot.
 */
let server: LocalServer;
let client: SkywatchClient;
beforeAll(async () => {
  // 404 for everything: not retried, and the request is what is under test.
  server = await localServer((_req, res) => json(res, 404, { title: 'Not Found', status: 404 }));
  client = new SkywatchClient({ baseUrl: `${server.url}/service`, auth: 'static-token-value' });
});
afterAll(() => server.close());

const KEY = 'AAAA-BBBB-CCCC-DDDD-EEEE';
const SITE_ID = '56e89d1d-f109-4b63-b598-01b88cd1de3f';
const CUSTOMER = {
  FirstName: 'Ada',
  LastName: 'Lovelace',
  Address1: '1 Main St',
  City: 'London',
  PostalCode: 'SW1',
  Country: 'GB',
  CustomerEmail: 'ada@example.com',
};

async function first(it: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of it) break;
}

/** Each operation: its route (slots as `{}`), and a call with `v` in slot `slot`. */
const OPERATIONS: {
  name: string;
  route: string;
  slots: number;
  call: (values: string[]) => Promise<unknown>;
}[] = [
  {
    name: '4.1',
    route: '/api/status/site/{}',
    slots: 1,
    call: ([k]) => first(client.siteAgentStatus(k ?? '')),
  },
  {
    name: '4.2',
    route: '/api/status/site/dnsp/{}',
    slots: 1,
    call: ([k]) => first(client.siteDnspStatus(k ?? '')),
  },
  {
    name: '4.3',
    route: '/api/status/gsm/{}',
    slots: 1,
    call: ([k]) => first(client.gsmAgentStatus(k ?? '')),
  },
  {
    name: '4.4',
    route: '/api/status/gsm/dnsp/{}',
    slots: 1,
    call: ([k]) => first(client.gsmDnspStatus(k ?? '')),
  },
  {
    name: '4.5',
    route: '/api/status/reporting/gsm/{}',
    slots: 1,
    call: ([g]) => client.gsmUsageReport(g ?? ''),
  },
  {
    name: '4.6',
    route: '/api/status/reporting/gsm/{}/sites',
    slots: 1,
    call: ([g]) => client.sitesUsageReport(g ?? ''),
  },
  {
    name: '4.7',
    route: '/api/status/reporting/gsm/{}/sites/{}',
    slots: 2,
    call: ([g, k]) => client.siteUsageReport(g ?? '', k ?? ''),
  },
  {
    name: '4.8',
    route: '/api/status/reporting/gsm/{}/sites/{}/dnsp',
    slots: 2,
    call: ([g, k]) => client.siteDnspUsageReport(g ?? '', k ?? ''),
  },
  {
    name: '4.9',
    route: '/api/console/gsm/{}/sites/{}/blockedurls/counts',
    slots: 2,
    call: ([g, s]) => client.blockedUrlCounts(g ?? '', s ?? ''),
  },
  {
    name: '4.10',
    route: '/api/ecom/shop/carts/{}/customers',
    slots: 1,
    call: ([c]) => client.addCartCustomers(c ?? '', { Shipping: CUSTOMER }),
  },
];
/** A valid value for each slot, in order, of each operation. */
const VALID: Record<string, string[]> = {
  '4.7': [KEY, KEY],
  '4.8': [KEY, KEY],
  '4.9': [KEY, SITE_ID],
  '4.10': ['SO-1'],
};

const HOSTILE = fc.oneof(
  fc.constantFrom(
    '.',
    '..',
    '%2e',
    '%2E',
    '%2e%2e',
    '.%2e',
    '%2e.',
    '..%2f',
    '%2f',
    '/',
    '../..',
    '../../customers',
    '..\\',
    '\\',
    '\\..',
    '?',
    '#',
    '?x=1',
    '#frag',
    ';',
    '%00',
    '%',
    '%%',
    ' ',
    '\t',
    '\u3000',
    'SO-1/../../customers',
    'SO-1%2F..%2F..',
    './SO-1',
    'SO-1/.',
    '%252e%252e',
    '..;',
    'a b',
    '😀',
    KEY.toLowerCase(),
    `${KEY}/..`,
    `../${KEY}`,
    SITE_ID.toUpperCase(),
    `${SITE_ID}/..`,
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc
    .array(fc.constantFrom('.', '..', '/', '%2e', '%2f', '\\', 'x'), { maxLength: 5 })
    .map((a) => a.join('')),
);

/** The route as a pattern that captures each slot as one encoded segment. */
const pattern = (route: string) =>
  new RegExp(
    `^/service${route.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\}/g, '([^/?#]+)')}(\\?.*)?$`,
  );

describe('SkywatchClient: path segments (property)', () => {
  it('never sends a request off its operation, whatever the values', async () => {
    let sent = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...OPERATIONS),
        fc.nat(1),
        HOSTILE,
        async (op, at, value) => {
          const slot = at % op.slots;
          const values = [...(VALID[op.name] ?? [KEY])];
          values[slot] = value;
          const before = server.seen.length;
          let error: unknown;
          try {
            await op.call(values);
          } catch (e) {
            error = e;
          }
          const seen = server.seen.slice(before);
          if (error instanceof ValidationError) {
            refused++;
            expect(seen).toEqual([]);
            return;
          }
          sent++;
          expect(seen.length).toBeGreaterThan(0);
          for (const request of seen) {
            const match = pattern(op.route).exec(request.url);
            expect({ op: op.name, url: request.url, match: match !== null }).toMatchObject({
              match: true,
            });
            const got = decodeURIComponent(match?.[slot + 1] ?? '');
            // Key codes are trimmed and go upper case, site ids lower case; a cart's code is
            // sent exactly as given.
            if (op.name === '4.10') expect(got).toBe(value);
            else expect(got.toLowerCase()).toBe(value.trim().toLowerCase());
            expect(['.', '..']).not.toContain(got);
          }
        },
      ),
      { numRuns: 1000, seed: 20_261_125 },
    );
    // Both outcomes happened, so neither check above was vacuous.
    expect(sent).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it('refuses "." and ".." as a vendorOrderCode before any request', async () => {
    const before = server.seen.length;
    for (const code of ['.', '..']) {
      await expect(client.addCartCustomers(code, { Shipping: CUSTOMER })).rejects.toThrow(
        ValidationError,
      );
    }
    expect(server.seen.length).toBe(before);
  });

  it('encodes a vendorOrderCode with slashes, percent signs and queries as one segment', async () => {
    const before = server.seen.length;
    await client
      .addCartCustomers('SO-1/../../x?y#z%2e', { Shipping: CUSTOMER })
      .catch(() => undefined);
    expect(server.seen[before]?.url).toBe(
      '/service/api/ecom/shop/carts/SO-1%2F..%2F..%2Fx%3Fy%23z%252e/customers',
    );
  });
});
