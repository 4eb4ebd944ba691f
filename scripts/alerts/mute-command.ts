import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import {
  type DocumentProblem,
  type MaintenanceWindow,
  MUTES_SCHEMA,
  MutesDocumentError,
  mutesProblems,
} from '../../lib/alerts/index.js';
import { ssmClient } from '../../lib/aws/index.js';
import type { AlertsCommand } from './main.js';
import { describeMatch, mutesParameterName, readMutes, writeMutes } from './mutes-source.js';

export const MUTE_USAGE = `Usage of mute: npm run alerts -- mute [--site S] [--kind K] [--machine ID] [--gsm G]
                    --to <ISO instant|+2h> --reason TEXT [--from <ISO instant|now>] [--by NAME]
  holds the triggers of matching alerts from --from (default now) to --to: a keycode or site
  name, a health kind, an endpoint's MachineID, a GSM, at least one of them; --to +30m, +2h
  or +1d counts from --from. --parameter NAME (default ALERT_MUTES_PARAMETER) is where the
  windows are (the stack output AlertMutesParameter).`;

const RELATIVE = /^\+(\d+)([mhd])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `now` and `+2h` as instants; anything else is left to the schema, which says what is wrong. */
function instant(text: string, base: number | undefined, now: number): string {
  if (text === 'now') return new Date(now).toISOString();
  const rel = RELATIVE.exec(text);
  if (rel && base !== undefined && !Number.isNaN(base))
    return new Date(base + Number(rel[1]) * UNIT_MS[rel[2] as keyof typeof UNIT_MS]).toISOString();
  return text;
}

function options(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      site: { type: 'string' },
      kind: { type: 'string' },
      machine: { type: 'string' },
      gsm: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      reason: { type: 'string' },
      by: { type: 'string' },
      parameter: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
}

type Options = ReturnType<typeof options>;

/** The window the options describe, and every problem with it, each with its path. */
export function windowFromOptions(v: Options, now: number, env: NodeJS.ProcessEnv) {
  const from = instant(v.from ?? 'now', undefined, now);
  const window = {
    id: randomBytes(4).toString('hex'),
    match: {
      ...(v.gsm ? { gsm: v.gsm } : {}),
      ...(v.site ? { site: v.site } : {}),
      ...(v.machine ? { machineId: v.machine } : {}),
      ...(v.kind ? { kind: v.kind } : {}),
    },
    from,
    to: instant(v.to ?? '', Date.parse(from), now),
    reason: v.reason ?? '',
    by: v.by ?? env.SKYWATCH_USER ?? userInfo().username,
  };
  // The schema's own paths, without `windows[0].`: `to: must be after from`.
  const problems: DocumentProblem[] = mutesProblems({
    schema: MUTES_SCHEMA,
    windows: [window],
  }).map((p) => ({ ...p, path: p.path.replace(/^windows\[0\]\.?/, '') || '(window)' }));
  if (problems.length === 0 && Date.parse(window.to) <= now)
    problems.push({ path: 'to', segments: ['to'], message: 'has already passed' });
  return { window: window as MaintenanceWindow, problems };
}

/**
 * `npm run alerts -- mute …`: adds a maintenance window to the parameter, removing the windows
 * that have ended (docs/operations.md, "Maintenance windows").
 */
export const muteCommand: AlertsCommand = async (argv, io, context) => {
  const env = context.env ?? process.env;
  const now = (context.now ?? Date.now)();
  let v: Options;
  let name: string;
  try {
    v = options(argv);
    if (v.help) {
      io.stderr(`${MUTE_USAGE}\n`);
      return 0;
    }
    name = mutesParameterName(v.parameter, env);
  } catch (error) {
    io.stderr(`alerts mute: ${(error as Error).message}\n\n${MUTE_USAGE}\n`);
    return 2;
  }
  const { window, problems } = windowFromOptions(v, now, env);
  if (problems.length > 0) {
    const n = problems.length;
    io.stderr(`alerts mute: ${n} problem${n === 1 ? '' : 's'} with the window:\n`);
    for (const p of problems) io.stderr(`  ${p.path}: ${p.message}\n`);
    return 2;
  }
  const ssm = context.ssm ?? ssmClient();
  try {
    const doc = await readMutes(ssm, name);
    const gone = await writeMutes(ssm, name, [...doc.windows, window], now);
    io.stdout(
      `muted ${window.id}: ${describeMatch(window)} from ${window.from} to ${window.to} (${window.reason}, by ${window.by})\n`,
    );
    if (gone.length > 0) io.stdout(`removed ${gone.length} ended window(s)\n`);
    return 0;
  } catch (error) {
    io.stderr(`alerts mute: ${(error as Error).message}\n`);
    if (error instanceof MutesDocumentError)
      for (const p of error.problems) io.stderr(`  ${p.path}: ${p.message}\n`);
    return 1;
  }
};
