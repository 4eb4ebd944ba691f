import { parseArgs } from 'node:util';
import { type MaintenanceWindow, windowActive } from '../../lib/alerts/index.js';
import { ssmClient } from '../../lib/aws/index.js';
import type { AlertsCommand } from './main.js';
import { describeMatch, mutesParameterName, readMutes } from './mutes-source.js';

export const MUTES_USAGE = `Usage of mutes: npm run alerts -- mutes [--parameter NAME]
  lists the maintenance windows, each active, scheduled or ended (removed on the next write)`;

function state(w: MaintenanceWindow, now: number) {
  if (windowActive(w, now)) return 'active';
  return Date.parse(w.from) > now ? 'scheduled' : 'ended';
}

/** `a1b2c3d4  active     2026-06-15T12:00:00.000Z → …  site ACME  Re-imaging (by ana)` */
export function windowLine(w: MaintenanceWindow, now: number): string {
  return `${w.id}  ${state(w, now).padEnd(9)}  ${w.from} → ${w.to}  ${describeMatch(w)}  ${w.reason} (by ${w.by})`;
}

/** `npm run alerts -- mutes`: the windows in the parameter, as the alerter sees them now. */
export const mutesCommand: AlertsCommand = async (argv, io, context) => {
  const env = context.env ?? process.env;
  const now = (context.now ?? Date.now)();
  let name: string;
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: { parameter: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      io.stderr(`${MUTES_USAGE}\n`);
      return 0;
    }
    name = mutesParameterName(values.parameter, env);
  } catch (error) {
    io.stderr(`alerts mutes: ${(error as Error).message}\n\n${MUTES_USAGE}\n`);
    return 2;
  }
  try {
    const doc = await readMutes(context.ssm ?? ssmClient(), name);
    if (doc.windows.length === 0) io.stdout('no maintenance windows\n');
    for (const w of doc.windows) io.stdout(`${windowLine(w, now)}\n`);
    return 0;
  } catch (error) {
    io.stderr(`alerts mutes: ${(error as Error).message}\n`);
    return 1;
  }
};
