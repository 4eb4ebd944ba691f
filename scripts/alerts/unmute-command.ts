import { parseArgs } from 'node:util';
import { ssmClient } from '../../lib/aws/index.js';
import type { AlertsCommand } from './main.js';
import { describeMatch, mutesParameterName, readMutes, writeMutes } from './mutes-source.js';

export const UNMUTE_USAGE = `Usage of unmute: npm run alerts -- unmute <id> [--parameter NAME]
  ends a maintenance window now: alerts it held that are still open are sent on the alerter's
  next run, marked as raised during maintenance`;

/** `npm run alerts -- unmute <id>`: removes a window, and the windows that have ended. */
export const unmuteCommand: AlertsCommand = async (argv, io, context) => {
  const env = context.env ?? process.env;
  const now = (context.now ?? Date.now)();
  let id: string;
  let name: string;
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { parameter: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      io.stderr(`${UNMUTE_USAGE}\n`);
      return 0;
    }
    if (positionals.length !== 1 || !positionals[0]) throw new Error('give one window id');
    id = positionals[0];
    name = mutesParameterName(values.parameter, env);
  } catch (error) {
    io.stderr(`alerts unmute: ${(error as Error).message}\n\n${UNMUTE_USAGE}\n`);
    return 2;
  }
  const ssm = context.ssm ?? ssmClient();
  try {
    const doc = await readMutes(ssm, name);
    const window = doc.windows.find((w) => w.id === id);
    if (!window) {
      io.stderr(`alerts unmute: no window ${id} (npm run alerts -- mutes lists them)\n`);
      return 1;
    }
    const gone = await writeMutes(
      ssm,
      name,
      doc.windows.filter((w) => w !== window),
      now,
    );
    io.stdout(`unmuted ${id}: ${describeMatch(window)} (${window.reason})\n`);
    if (gone.length > 0) io.stdout(`removed ${gone.length} ended window(s)\n`);
    return 0;
  } catch (error) {
    io.stderr(`alerts unmute: ${(error as Error).message}\n`);
    return 1;
  }
};
