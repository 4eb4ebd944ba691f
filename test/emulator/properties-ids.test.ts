import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, type Emulator, fixture, KEYCODE_RE, start, token } from './helpers.js';

const RUNS = { numRuns: 40 };

let em: Emulator;
let tok: string;
let fx: ReturnType<typeof fixture>;
let known: Set<string>;

beforeAll(async () => {
  em = await start();
  fx = fixture(em);
  known = new Set(fx.info.gsms.flatMap((g) => [g.key, ...g.sites.map((s) => s.key)]));
});
afterAll(() => em.close());
beforeEach(async () => {
  tok = await token(em);
});

async function statusFor(
  path: string,
  query: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const res = await call(em, path, { token: tok, query });
  return { status: res.status, body: await res.text() };
}

const KC_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const group = fc.string({
  unit: fc.constantFrom(...KC_CHARS, ...KC_CHARS.toLowerCase()),
  minLength: 4,
  maxLength: 4,
});
const keycode = fc.array(group, { minLength: 5, maxLength: 5 }).map((g) => g.join('-'));

/** Strings that are not keycodes: near misses of the shape, and free text of URL-safe characters. */
const notKeycode = fc
  .oneof(
    fc.array(group, { minLength: 1, maxLength: 7 }).map((g) => g.join('-')),
    fc
      .tuple(keycode, fc.nat(23), fc.constantFrom('', 'X', '-', '_', '--', '.'))
      .map(([k, i, s]) => k.slice(0, i) + s + k.slice(i + 1)),
    fc.string({ unit: fc.constantFrom(...'abcXYZ019-_~.!$*'), minLength: 1, maxLength: 40 }),
    keycode.map((k) => k.replaceAll('-', '_')),
  )
  .filter((s) => !KEYCODE_RE.test(s.toUpperCase()) && s !== '.' && s !== '..');

describe('Properties: keycodes', () => {
  it('answers 400 (never 500) for any string that is not a keycode', async () => {
    await fc.assert(
      fc.asyncProperty(
        notKeycode,
        fc.constantFrom('site', 'gsm', 'site/dnsp', 'gsm/dnsp'),
        async (kc, route) => {
          const r = await statusFor(`/api/status/${route}/${encodeURIComponent(kc)}`);
          expect(r.status, `${route}/${kc}: ${r.body.slice(0, 200)}`).toBe(400);
          expect(Object.keys(JSON.parse(r.body).errors)).toContain('keyCode');
        },
      ),
      RUNS,
    );
  });

  it('answers 400 (never 500) for raw path segments with arbitrary percent-escapes', async () => {
    const raw = fc
      .string({ unit: fc.constantFrom(...'AB01-%%%EFZ'), minLength: 1, maxLength: 30 })
      .filter((s) => {
        try {
          return !KEYCODE_RE.test(decodeURIComponent(s).toUpperCase());
        } catch {
          return true;
        }
      });
    await fc.assert(
      fc.asyncProperty(raw, async (segment) => {
        const res = await fetch(`${em.baseUrl}/api/status/gsm/${segment}`, {
          headers: { Authorization: `Bearer ${tok}`, 'User-Agent': 'conformance' },
        });
        const text = await res.text();
        expect(res.status, `${segment}: ${text.slice(0, 200)}`).toBe(400);
      }),
      RUNS,
    );
  });

  it('answers 404 for any well-formed keycode that is not known', async () => {
    await fc.assert(
      fc.asyncProperty(
        keycode.filter((k) => !known.has(k.toUpperCase())),
        fc.constantFrom('site', 'gsm', 'site/dnsp', 'gsm/dnsp'),
        async (kc, route) => {
          const r = await statusFor(`/api/status/${route}/${kc}`);
          expect(r.status, `${route}/${kc}: ${r.body.slice(0, 200)}`).toBe(404);
        },
      ),
      RUNS,
    );
  });

  it('answers a known keycode in any letter case', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }), async (flips) => {
        const kc = [...fx.site.key].map((c, i) => (flips[i] ? c.toLowerCase() : c)).join('');
        const r = await statusFor(`/api/status/site/${kc}`, { batchSize: '1' });
        expect(r.status).toBe(200);
        expect(JSON.parse(r.body).QueryResults[0].KC).toBe(fx.site.key);
      }),
      { numRuns: 10 },
    );
  });
});

const segment = fc.string({
  unit: fc.constantFrom(...'ABCDEF0123456789xyz-_.'),
  minLength: 1,
  maxLength: 20,
});

describe('Properties: MachineIDs', () => {
  const path = () => `/api/status/site/${fx.site.key}`;

  it('answers 400 naming machineId for a wrong number of segments', async () => {
    const wrongCount = fc
      .integer({ min: 1, max: 6 })
      .filter((n) => n !== 3)
      .chain((n) => fc.array(segment, { minLength: n, maxLength: n }));
    await fc.assert(
      fc.asyncProperty(wrongCount, async (parts) => {
        const r = await statusFor(path(), { machineId: parts.join(':::') });
        expect(r.status, r.body.slice(0, 200)).toBe(400);
        expect(Object.keys(JSON.parse(r.body).errors)).toContain('machineId');
      }),
      RUNS,
    );
  });

  it('answers 400 for three segments when one is empty or holds a colon', async () => {
    const broken = fc
      .tuple(
        fc.array(segment, { minLength: 3, maxLength: 3 }),
        fc.nat(2),
        fc.constantFrom('', ':', 'a:b', ':x', 'x:'),
      )
      .map(([parts, i, bad]) => parts.map((p, j) => (j === i ? (bad === '' ? '' : bad) : p)));
    await fc.assert(
      fc.asyncProperty(broken, async (parts) => {
        const r = await statusFor(path(), { machineId: parts.join(':::') });
        expect(r.status, `${parts.join(':::')}: ${r.body.slice(0, 200)}`).toBe(400);
      }),
      RUNS,
    );
  });

  it('answers 200 with an empty batch for a well-formed unknown MachineID', async () => {
    const known = new Set(em.machineIds(fx.site.key, 1000));
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 3, maxLength: 3 }), async (parts) => {
        fc.pre(!known.has(parts.join(':::')));
        const r = await statusFor(path(), { machineId: parts.join(':::') });
        expect(r.status, r.body.slice(0, 200)).toBe(200);
        expect(JSON.parse(r.body)).toMatchObject({
          Count: 0,
          QueryResults: [],
          ContinuationToken: null,
        });
      }),
      RUNS,
    );
  });
});
