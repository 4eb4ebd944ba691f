import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ROUTING,
  HEALTH_KINDS,
  type HealthKind,
  parseRoutingText,
  ROUTING_SCHEMA,
  type RoutedAlert,
  RoutingDocument,
  RoutingDocumentError,
  routeAlert,
  routingProblems,
  Severity,
} from '../../lib/alerts/index.js';
import * as z from '../../lib/zod.js';

const SEVERITIES = Severity.options;
const GSMS = ['G1', 'G2'];
const SITES = ['S1', 'S2', 'S3'];
const NAMES = ['acme', 'globex', 'initech'];
const DESTINATIONS = ['slack', 'acme-slack', 'psa', 'pagerduty'];

const alertArb: fc.Arbitrary<RoutedAlert> = fc.record({
  gsm: fc.constantFrom(...GSMS),
  site: fc.constantFrom(...SITES),
  siteName: fc.option(fc.constantFrom(...NAMES), { nil: null }),
  kind: fc.constantFrom(...HEALTH_KINDS),
  severity: fc.constantFrom(...SEVERITIES),
});

const some = <T>(values: readonly T[]) =>
  fc.option(fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: 3 }), {
    nil: undefined,
  });
/** A match naming at least one field, from small domains so that routes overlap often. */
const matchArb = fc
  .record({
    gsm: some(GSMS),
    site: some([...SITES, ...NAMES]),
    kind: some<HealthKind>(HEALTH_KINDS),
    severity: some(SEVERITIES),
  })
  .map((m) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)))
  .filter((m) => Object.keys(m).length > 0);
const destinationsArb = fc.uniqueArray(fc.constantFrom(...DESTINATIONS), { maxLength: 3 });
const docArb = fc
  .array(fc.record({ match: matchArb, destinations: destinationsArb }), { maxLength: 6 })
  .chain((routes) =>
    destinationsArb.map((fallback) =>
      z.parse(RoutingDocument, {
        schema: ROUTING_SCHEMA,
        routes: routes.map((r, i) => ({ name: `route-${i}`, ...r, fields: { n: i } })),
        default: { destinations: fallback },
      }),
    ),
  );

/** The documented rule, written out plainly: every named field holds a value of the alert. */
function holds(match: Record<string, string[] | undefined>, alert: RoutedAlert): boolean {
  const lower = (v: string | null) => v?.toLowerCase();
  const site = [lower(alert.site), lower(alert.siteName)];
  return (
    (!match.gsm || match.gsm.some((g) => lower(g) === lower(alert.gsm))) &&
    (!match.site || match.site.some((s) => site.includes(lower(s)))) &&
    (!match.kind || match.kind.includes(alert.kind)) &&
    (!match.severity || match.severity.includes(alert.severity))
  );
}

const ALERT: RoutedAlert = {
  gsm: 'W9YT-G4ZI-JT0Z-ERPO-3ZZI',
  site: '2PKA-1EGZ-UKZK-OT8S-NH03',
  siteName: 'Acme Dental',
  kind: 'infected',
  severity: 'critical',
};
const doc = (routes: unknown[], extra: Record<string, unknown> = {}) => ({
  schema: ROUTING_SCHEMA,
  routes,
  default: { destinations: ['slack'] },
  ...extra,
});
const paths = (value: unknown) => routingProblems(value).map((p) => p.path);

describe('Function: routeAlert', () => {
  it('takes the first route that matches, else the default', () => {
    fc.assert(
      fc.property(docArb, alertArb, (d, alert) => {
        const first = d.routes.find((r) => holds(r.match, alert));
        expect(routeAlert(d, alert)).toEqual(
          first
            ? { route: first.name, destinations: first.destinations, fields: first.fields }
            : { route: 'default', destinations: d.default.destinations, fields: {} },
        );
      }),
    );
  });

  it('lets a route shadow a later one with the same match', () => {
    fc.assert(
      fc.property(docArb, alertArb, matchArb, (d, alert, match) => {
        const routes = [
          { name: 'early', match, destinations: ['psa'] },
          { name: 'late', match, destinations: ['slack'] },
          ...d.routes,
        ];
        const got = routeAlert(z.parse(RoutingDocument, { ...d, routes }), alert);
        expect(got.route).not.toBe('late');
        if (holds(match, alert)) expect(got.route).toBe('early');
      }),
    );
  });

  it('routes every alert to the default of a document that has nothing else', () => {
    fc.assert(
      fc.property(destinationsArb, alertArb, (destinations, alert) => {
        const only = z.parse(RoutingDocument, {
          schema: ROUTING_SCHEMA,
          default: { destinations, fields: { source: 'skywatch' } },
        });
        expect(routeAlert(only, alert)).toEqual({
          route: 'default',
          destinations,
          fields: { source: 'skywatch' },
        });
      }),
    );
  });

  it('sends a matched alert nowhere when its route has no destination', () => {
    fc.assert(
      fc.property(docArb, alertArb, (d, alert) => {
        const match = { site: [alert.site] };
        const routes = [{ name: 'nowhere', match, destinations: [] }, ...d.routes];
        const got = routeAlert(z.parse(RoutingDocument, { ...d, routes }), alert);
        expect(got).toEqual({ route: 'nowhere', destinations: [], fields: {} });
      }),
    );
  });

  it('routes as the absent document did when there is none: the four legacy destinations', () => {
    fc.assert(
      fc.property(alertArb, (alert) => {
        expect(routeAlert(DEFAULT_ROUTING, alert).destinations).toEqual([
          'slack',
          'teams',
          'pagerduty',
          'webhook',
        ]);
      }),
    );
  });

  it('matches a site by keycode or by name, and a GSM, whatever their case', () => {
    const d = z.parse(
      RoutingDocument,
      doc([
        {
          name: 'by-name',
          match: { site: ['acme dental'], gsm: ['w9yt-g4zi-jt0z-erpo-3zzi'] },
          destinations: ['psa'],
        },
      ]),
    );
    expect(routeAlert(d, ALERT).route).toBe('by-name');
    expect(routeAlert(d, { ...ALERT, siteName: null }).route).toBe('default');
    const byKey = z.parse(
      RoutingDocument,
      doc([{ name: 'by-key', match: { site: [ALERT.site.toLowerCase()] }, destinations: [] }]),
    );
    expect(routeAlert(byKey, { ...ALERT, siteName: null }).route).toBe('by-key');
  });

  it('needs every field of a match (AND), any value of one (OR)', () => {
    const d = z.parse(
      RoutingDocument,
      doc([
        {
          name: 'pager',
          match: { kind: ['infected', 'protection-off'], severity: ['critical'] },
          destinations: ['pagerduty'],
        },
      ]),
    );
    expect(routeAlert(d, ALERT).route).toBe('pager');
    expect(routeAlert(d, { ...ALERT, kind: 'protection-off' }).route).toBe('pager');
    expect(routeAlert(d, { ...ALERT, severity: 'high' }).route).toBe('default');
    expect(routeAlert(d, { ...ALERT, kind: 'offline' }).route).toBe('default');
  });
});

/** A fault put in a valid document, and the path it must be reported at. */
type Fault = { path: string; apply: (d: Record<string, unknown>, i: number) => void };
const route = (d: Record<string, unknown>, i: number) =>
  (d.routes as Record<string, unknown>[])[i] as Record<string, unknown> & {
    match: Record<string, unknown>;
    destinations: unknown[];
  };
const FAULTS: ((i: number) => Fault)[] = [
  (i) => ({
    path: `routes[${i}].destinations[0]`,
    apply: (d) => {
      route(d, i).destinations = ['Acme_Slack'];
    },
  }),
  (i) => ({
    path: `routes[${i}].match.kind[0]`,
    apply: (d) => {
      route(d, i).match = { kind: ['infectd'] };
    },
  }),
  (i) => ({
    path: `routes[${i}].match.severity[0]`,
    apply: (d) => {
      route(d, i).match = { severity: ['urgent'] };
    },
  }),
  (i) => ({
    path: `routes[${i}].match`,
    apply: (d) => {
      route(d, i).match = { sites: ['S1'] };
    },
  }),
  (i) => ({
    path: `routes[${i}].match`,
    apply: (d) => {
      route(d, i).match = {};
    },
  }),
  (i) => ({
    path: `routes[${i}].match.gsm`,
    apply: (d) => {
      route(d, i).match = { gsm: [] };
    },
  }),
  (i) => ({
    path: `routes[${i}].name`,
    apply: (d) => {
      route(d, i).name = 'default';
    },
  }),
  (i) => ({
    path: `routes[${i}].fields`,
    apply: (d) => {
      route(d, i).fields = 'psa 42';
    },
  }),
];

describe('Schema: RoutingDocument', () => {
  it('lists every problem of an invalid document, each at its path', () => {
    const faultsArb = fc.uniqueArray(
      fc.record({ route: fc.nat(5), fault: fc.nat(FAULTS.length - 1) }),
      { minLength: 1, maxLength: 4, selector: (f) => f.route },
    );
    fc.assert(
      fc.property(docArb, faultsArb, fc.boolean(), (valid, faults, badDefault) => {
        const d = structuredClone(valid) as unknown as Record<string, unknown>;
        const routes = d.routes as unknown[];
        while (routes.length < 6)
          routes.push({
            name: `extra-${routes.length}`,
            match: { site: ['S9'] },
            destinations: [],
          });
        const expected = faults.map(({ route: i, fault }) => {
          const f = (FAULTS[fault] as (i: number) => Fault)(i);
          f.apply(d, i);
          return f.path;
        });
        if (badDefault) {
          d.default = { destinations: 'slack' };
          expected.push('default.destinations');
        }
        expect([...new Set(paths(d))].sort()).toEqual([...new Set(expected)].sort());
        expect(() => z.parse(RoutingDocument, d)).toThrow();
      }),
    );
  });

  it('accepts every document the generator makes, and reads back what it was given', () => {
    fc.assert(
      fc.property(docArb, (d) => {
        expect(routingProblems(d)).toEqual([]);
        expect(parseRoutingText(JSON.stringify(d))).toEqual(d);
      }),
    );
  });

  it('refuses repeated route names and destinations, naming the first', () => {
    const twice = doc([
      { name: 'acme', match: { site: ['A'] }, destinations: ['psa', 'psa'] },
      { name: 'acme', match: { site: ['B'] }, destinations: [] },
    ]);
    expect(routingProblems(twice)).toEqual([
      expect.objectContaining({ path: 'routes[0].destinations[1]', message: 'repeats psa' }),
      expect.objectContaining({
        path: 'routes[1].name',
        message: 'repeats the name of routes[0]',
      }),
    ]);
  });

  it('refuses unknown keys at every level, a missing default and another schema', () => {
    expect(paths({ schema: 'skywatch.routing/v2', routs: [] })).toEqual([
      'schema',
      'default',
      '(document)',
    ]);
    expect(paths(doc([], { default: { destinations: ['slack'], feilds: { a: 1 } } }))).toEqual([
      'default',
    ]);
  });

  it('says a text that is not JSON is not JSON, as one problem of the document', () => {
    expect(() => parseRoutingText('{"schema":')).toThrow(RoutingDocumentError);
    try {
      parseRoutingText('{"schema":');
    } catch (error) {
      expect((error as RoutingDocumentError).problems).toEqual([
        expect.objectContaining({
          path: '(document)',
          message: expect.stringMatching(/^is not JSON/),
        }),
      ]);
    }
  });

  it('names each problem in its error message', () => {
    const bad = doc([{ name: 'Acme', match: { kind: ['x'] }, destinations: [] }]);
    expect(() => parseRoutingText(JSON.stringify(bad))).toThrow(
      /invalid \(2 problems\): routes\[0\]\.name: must be a route name.*; routes\[0\]\.match\.kind\[0\]: Invalid option/,
    );
  });
});
