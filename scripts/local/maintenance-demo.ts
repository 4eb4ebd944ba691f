import type { SSMClient } from '@aws-sdk/client-ssm';
import { HeldAlert, heldPrefix } from '../../functions/infection-alerter/health/maintenance.js';
import type { StateStore } from '../../lib/aws/index.js';
import type { AlertsCommand } from '../alerts/main.js';
import { muteCommand } from '../alerts/mute-command.js';
import { readMutes } from '../alerts/mutes-source.js';
import { unmuteCommand } from '../alerts/unmute-command.js';

interface Site {
  key: string;
  name: string;
}

/**
 * The local run's maintenance window (docs/operations.md, "Maintenance windows"), set and ended
 * through `npm run alerts -- mute` and `unmute` themselves, so the run writes the document the
 * way an operator does.
 */
async function alerts(command: AlertsCommand, argv: string[], ssm: SSMClient): Promise<string[]> {
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) };
  const status = await command(argv, io, { ssm });
  if (status !== 0) throw new Error(`alerts ${argv.join(' ')} failed: ${err.join('').trim()}`);
  return out.join('').trimEnd().split('\n');
}

/** `mute --site <name> --to +2h`: a window from now on one site; answers its id and the output. */
export async function muteSite(ssm: SSMClient, parameter: string, site: Site, reason: string) {
  const argv = ['--site', site.name, '--to', '+2h', '--reason', reason, '--by', 'npm start'];
  const lines = await alerts(muteCommand, [...argv, '--parameter', parameter], ssm);
  const window = (await readMutes(ssm, parameter)).windows.find((w) => w.match.site === site.name);
  if (!window) throw new Error(`mute wrote no window on ${site.name} to ${parameter}`);
  return { id: window.id, lines };
}

/** `unmute <id>`: the window ends now; the alerter's next run sends what it held. */
export const endWindow = (ssm: SSMClient, parameter: string, id: string) =>
  alerts(unmuteCommand, [id, '--parameter', parameter], ssm);

/** One line per trigger a window holds in a GSM, from the alerter's index of them: `held by 1a2b3c4d: Offline: PC-1 at Acme`. */
export async function heldLines(state: StateStore, gsm: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const { key } of state.list(heldPrefix(gsm))) {
    const found = await state.get(key, HeldAlert);
    if (found) lines.push(`held by ${found.value.held.window}: ${found.value.alert.title}`);
  }
  return lines;
}
