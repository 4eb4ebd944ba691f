import * as z from '../zod.js';
import {
  type DocumentProblem,
  documentProblems,
  parseDocumentText,
  sameName,
} from './documents.js';
import { RoutingDocumentError } from './errors.js';
import { type HealthAlert, HealthKind, Severity } from './model.js';

/**
 * Alert routing (docs/operations.md, "Routing"): which named destinations of the notifier's
 * secret an alert goes to, by GSM, site, kind and severity. The document names destinations
 * and never holds a URL or a key: those stay in Secrets Manager.
 */
export const ROUTING_SCHEMA = 'skywatch.routing/v1';
/** The name of the route an alert takes when no route matches it. */
export const DEFAULT_ROUTE = 'default';
/** The destinations of the absent document: the notifier secret's four legacy keys. */
export const LEGACY_DESTINATIONS = ['slack', 'teams', 'pagerduty', 'webhook'] as const;

/**
 * A destination's or a route's name: lower case, digits and `-`, so that it reads the same in
 * the secret, the document, a metric's dimension and an SQS message group, and never needs
 * quoting or escaping in any of them.
 */
const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
const named = (what: string) =>
  z
    .string()
    .check(
      z.regex(
        NAME,
        `must be a ${what} name: a-z, 0-9 and -, at most 63 characters, e.g. acme-slack`,
      ),
    );
export const DestinationName = named('destination');
export type DestinationName = z.infer<typeof DestinationName>;

/** What a route adds to the alerts it sends (a PSA company id…): the webhook carries them. */
export const RouteFields = z.record(z.string().check(z.minLength(1), z.maxLength(64)), z.json());
export type RouteFields = z.infer<typeof RouteFields>;

/** An empty list would match no alert at all, which is never what was meant. */
const anyOf = <T extends z.core.$ZodType>(item: T) =>
  z.optional(
    z
      .array(item)
      .check(z.minLength(1, 'an empty list matches no alert: leave the field out to match any')),
  );
const Text = z.string().check(z.minLength(1));

/**
 * What a route matches: each field present must match (AND), any value of a field will do
 * (OR), a field left out matches any alert. `site` takes keycodes or site names, `gsm`
 * keycodes, both compared without regard to case. A route must name at least one field: the
 * route for every alert is `default`, and a catch-all route would leave every later route
 * unreachable.
 */
const Match = z
  .strictObject({
    gsm: anyOf(Text),
    site: anyOf(Text),
    kind: anyOf(HealthKind),
    severity: anyOf(Severity),
  })
  .check(
    z.refine(
      (m) => Object.values(m).some((v) => v !== undefined),
      'must name at least one of gsm, site, kind and severity: the route for every alert is default',
    ),
  );
export type RouteMatch = z.infer<typeof Match>;

/** `[]` sends the alerts nowhere; a name twice would be one destination's duplicate. */
const Destinations = z.array(DestinationName).check(
  z.superRefine((names, ctx) => {
    names.forEach((name, i) => {
      if (names.indexOf(name) !== i)
        ctx.addIssue({ code: 'custom', path: [i], message: `repeats ${name}`, input: name });
    });
  }),
);

const Route = z.strictObject({
  name: named('route'),
  match: Match,
  destinations: Destinations,
  fields: z.optional(RouteFields),
});
export type Route = z.infer<typeof Route>;

const DefaultRoute = z.strictObject({
  destinations: Destinations,
  fields: z.optional(RouteFields),
});

/** Route names are unique, and none is `default`: the name a webhook and the record carry. */
function uniqueRouteNames(doc: unknown, ctx: z.core.$RefinementCtx<unknown>) {
  const routes = (doc as { routes?: unknown } | null)?.routes;
  if (!Array.isArray(routes)) return;
  const seen = new Map<string, number>();
  routes.forEach((route: unknown, i) => {
    const name = (route as { name?: unknown } | null)?.name;
    if (typeof name !== 'string') return;
    const path = ['routes', i, 'name'];
    const first = seen.get(name);
    if (name === DEFAULT_ROUTE)
      ctx.addIssue({ code: 'custom', path, message: 'default is the name of the default route' });
    else if (first !== undefined)
      ctx.addIssue({ code: 'custom', path, message: `repeats the name of routes[${first}]` });
    else seen.set(name, i);
  });
}

/**
 * The routing document, as an operator writes it. Unknown keys are refused at every level: a
 * misspelt `sites` would otherwise be a field left out, and match every alert.
 */
export const RoutingDocument = z
  .strictObject({
    schema: z.literal(ROUTING_SCHEMA),
    routes: z._default(z.array(Route), []),
    default: DefaultRoute,
  })
  // Also when another part of the document is wrong, so one reading lists every problem.
  .check(z.superRefine(uniqueRouteNames, { when: () => true }));
export type RoutingDocument = z.infer<typeof RoutingDocument>;

/** Where one alert goes: the route it took, its destinations (maybe none) and its fields. */
export const Routing = z.object({
  route: z.string(),
  destinations: z.array(z.string()),
  fields: RouteFields,
});
export type Routing = z.infer<typeof Routing>;

/** The document in force when none is given: every alert to the four legacy destinations. */
export const DEFAULT_ROUTING: RoutingDocument = {
  schema: ROUTING_SCHEMA,
  routes: [],
  default: { destinations: [...LEGACY_DESTINATIONS] },
};

/**
 * Every problem of a routing document, each with its path; none when it is valid.
 *
 * @example
 * routingProblems({ schema: 'skywatch.routing/v1' }) // [{ path: 'default', message: … }]
 */
export const routingProblems = (value: unknown): DocumentProblem[] =>
  documentProblems(RoutingDocument, value);

/**
 * Validates a routing document; throws RoutingDocumentError listing every problem.
 *
 * @example
 * const doc = parseRouting(JSON.parse(text));
 */
export function parseRouting(value: unknown): RoutingDocument {
  const parsed = z.safeParse(RoutingDocument, value);
  if (parsed.success) return parsed.data;
  throw new RoutingDocumentError(routingProblems(value));
}

/** A routing document from its JSON text (the SSM parameter, a file). */
export const parseRoutingText = (text: string): RoutingDocument =>
  parseDocumentText(
    RoutingDocument,
    text,
    (problems, cause) => new RoutingDocumentError(problems, { cause }),
  );

/** The alert's fields routing reads. */
export type RoutedAlert = Pick<HealthAlert, 'gsm' | 'site' | 'siteName' | 'kind' | 'severity'>;

function matches(match: RouteMatch, alert: RoutedAlert): boolean {
  return (
    (match.gsm?.some((g) => sameName(g, alert.gsm)) ?? true) &&
    (match.site?.some((s) => sameName(s, alert.site) || sameName(s, alert.siteName)) ?? true) &&
    (match.kind?.includes(alert.kind) ?? true) &&
    (match.severity?.includes(alert.severity) ?? true)
  );
}

/**
 * Where an alert goes: the first route that matches it, else the default.
 *
 * @example
 * routeAlert(doc, alert) // { route: 'acme', destinations: ['acme-slack', 'psa'], fields: { psaCompanyId: 42 } }
 */
export function routeAlert(doc: RoutingDocument, alert: RoutedAlert): Routing {
  const route = doc.routes.find((r) => matches(r.match, alert));
  const chosen = route ?? doc.default;
  return {
    route: route?.name ?? DEFAULT_ROUTE,
    destinations: [...chosen.destinations],
    fields: chosen.fields ?? {},
  };
}

/** Decides where an alert goes; the alerter's is the SSM parameter (lib/aws/routing-parameter.ts). */
export interface AlertRouter {
  route(alert: RoutedAlert): Promise<Routing>;
}

/**
 * A router over a fixed document (by default, the absent document's).
 *
 * @example
 * new DeliveryQueue(sqs, url, documentRouter(parseRouting(json)));
 */
export function documentRouter(doc: RoutingDocument = DEFAULT_ROUTING): AlertRouter {
  return { route: async (alert) => routeAlert(doc, alert) };
}
