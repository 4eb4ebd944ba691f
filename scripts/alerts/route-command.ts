import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DEFAULT_RULES } from '../../functions/infection-alerter/health/rules.js';
import {
  HealthKind,
  type RoutedAlert,
  type Routing,
  type RoutingDocument,
  RoutingDocumentError,
  routeAlert,
  Severity,
} from '../../lib/alerts/index.js';
import * as z from '../../lib/zod.js';
import { UsageError } from '../run-command.js';
import type { AlertsCommand } from './main.js';
import { routingFromFile } from './routing-source.js';

export const ROUTE_USAGE = `Usage of route: npm run alerts -- route <document.json> [--explain ALERT]...
  <document.json>     a routing document (docs/operations.md, "Routing"): its problems are
                      listed with their paths, all at once
  --explain ALERT     where an alert would go: an alert's JSON file (as the webhook gets it),
                      or kind/site[/machineId], the site a keycode or a site name; repeatable
  --severity LEVEL    the severity of a kind/site alert (default: the kind's default)
  --gsm KEYCODE       the GSM of a kind/site alert (default: none, so no gsm match)`;

/** A mistake in the command line: the usage applies (exit 2). */
/** What routing reads of an alert; the rest of an alert's JSON is accepted and not needed. */
const AlertFile = z.looseObject({
  kind: HealthKind,
  severity: Severity,
  gsm: z._default(z.string(), ''),
  site: z.string(),
  siteName: z._default(z.nullable(z.string()), null),
});

/** `infected/ACME/A1B2`: a site that is a keycode or a name matches either way. */
function alertFromSpec(spec: string, severity: string | undefined, gsm: string | undefined) {
  const [kind, site, ...rest] = spec.split('/');
  const parsedKind = z.safeParse(HealthKind, kind);
  if (!parsedKind.success || !site || rest.length > 1)
    throw new UsageError(
      `--explain ${spec}: not kind/site[/machineId] with a health kind (${HealthKind.options.join(', ')})`,
    );
  const level = z.safeParse(Severity, severity ?? DEFAULT_RULES[parsedKind.data].severity);
  if (!level.success)
    throw new UsageError(`--severity ${severity}: one of ${Severity.options.join(', ')}`);
  return { kind: parsedKind.data, severity: level.data, gsm: gsm ?? '', site, siteName: site };
}

async function alertToExplain(spec: string, severity?: string, gsm?: string): Promise<RoutedAlert> {
  if (!spec.endsWith('.json') && !existsSync(spec)) return alertFromSpec(spec, severity, gsm);
  const parsed = z.safeParse(AlertFile, JSON.parse(await readFile(spec, 'utf8')));
  if (!parsed.success)
    throw new UsageError(`--explain ${spec}: not an alert (${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

function describeAlert(alert: RoutedAlert): string {
  const where = alert.siteName && alert.siteName !== alert.site ? ` (${alert.siteName})` : '';
  const gsm = alert.gsm ? `, GSM ${alert.gsm}` : '';
  return `${alert.kind} at site ${alert.site}${where}, severity ${alert.severity}${gsm}`;
}

/** What an operator reads of one alert's routing. */
export function explanation(alert: RoutedAlert, routing: Routing): string[] {
  const to = routing.destinations.length > 0 ? routing.destinations.join(', ') : 'nowhere';
  const lines = [`alert   ${describeAlert(alert)}`, `route   ${routing.route}`, `to      ${to}`];
  if (Object.keys(routing.fields).length > 0)
    lines.push(`fields  ${JSON.stringify(routing.fields)}`);
  return lines;
}

function summary(file: string, doc: RoutingDocument): string {
  const n = doc.routes.length;
  const to = doc.default.destinations.join(', ') || 'nowhere';
  return `${file} is valid: ${n} route${n === 1 ? '' : 's'}, then the default (to ${to})`;
}

function options(argv: readonly string[]) {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        explain: { type: 'string', multiple: true },
        severity: { type: 'string' },
        gsm: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (!values.help && positionals.length !== 1)
      throw new UsageError('give one routing document (a JSON file)');
    return { ...values, file: positionals[0] ?? '' };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message, { cause: error });
  }
}

/**
 * `npm run alerts -- route <document.json> [--explain ALERT]`: validates a routing document
 * before it is put in the parameter (or the stack's settings), and shows where alerts would go.
 */
export const routeCommand: AlertsCommand = async (argv, io) => {
  let args: ReturnType<typeof options>;
  try {
    args = options(argv);
  } catch (error) {
    io.stderr(`alerts route: ${(error as Error).message}\n\n${ROUTE_USAGE}\n`);
    return 2;
  }
  if (args.help) {
    io.stderr(`${ROUTE_USAGE}\n`);
    return 0;
  }
  let doc: RoutingDocument;
  try {
    doc = await routingFromFile(args.file);
  } catch (error) {
    if (!(error instanceof RoutingDocumentError)) {
      io.stderr(`alerts route: cannot read ${args.file}: ${(error as Error).message}\n`);
      return 1;
    }
    const n = error.problems.length;
    io.stderr(`alerts route: ${args.file} has ${n} problem${n === 1 ? '' : 's'}:\n`);
    for (const p of error.problems) io.stderr(`  ${p.path}: ${p.message}\n`);
    return 1;
  }
  io.stdout(`${summary(args.file, doc)}\n`);
  for (const spec of args.explain ?? []) {
    let alert: RoutedAlert;
    try {
      alert = await alertToExplain(spec, args.severity, args.gsm);
    } catch (error) {
      io.stderr(`alerts route: ${(error as Error).message}\n`);
      return error instanceof UsageError ? 2 : 1;
    }
    io.stdout(`\n${explanation(alert, routeAlert(doc, alert)).join('\n')}\n`);
  }
  return 0;
};
