import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SSMClient } from '@aws-sdk/client-ssm';
import { MUTE_USAGE, muteCommand } from './mute-command.js';
import { MUTES_USAGE, mutesCommand } from './mutes-command.js';
import { ROUTE_USAGE, routeCommand } from './route-command.js';
import { TEST_USAGE, testCommand } from './test-command.js';
import { UNMUTE_USAGE, unmuteCommand } from './unmute-command.js';

/** Where a command writes: the process's streams, or a test's buffers. */
export interface AlertsIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** What a command reads from outside; the process's own by default. */
export interface AlertsContext {
  env?: NodeJS.ProcessEnv;
  /** Secrets Manager; by default the SDK's own chain (AWS_ENDPOINT_URL points it at moto). */
  secrets?: SecretsManagerClient;
  /** SSM, for the routing and windows parameters; by default the SDK's own chain. */
  ssm?: SSMClient;
  /** The time windows are judged at; a test's clock. @default Date.now */
  now?: () => number;
}

/** A subcommand: its arguments after its name; answers the exit status. */
export type AlertsCommand = (
  argv: readonly string[],
  io: AlertsIo,
  context: AlertsContext,
) => Promise<number>;

const COMMANDS: Record<string, AlertsCommand> = {
  test: testCommand,
  route: routeCommand,
  mute: muteCommand,
  unmute: unmuteCommand,
  mutes: mutesCommand,
};

export const USAGE = `Usage: npm run alerts -- <command> [options]

Health alerts and their destinations (docs/operations.md, "Notifier and destinations").

Commands:
  test    send a test alert, a trigger then its resolve, to each destination of the
          notifier's secret (or where the routing document sends it), and print what each
          answered
  route   validate a routing document, and print where an alert would go
  mute    hold a site's, an endpoint's or a kind's alerts for a maintenance window
  unmute  end a maintenance window
  mutes   list the maintenance windows

${TEST_USAGE}

${ROUTE_USAGE}

${MUTE_USAGE}

${UNMUTE_USAGE}

${MUTES_USAGE}

Exit status: 0 when every destination took every event (test) or the document is valid
(route), 1 when one did not, nothing could be sent or the document has problems, 2 for a
command line it does not understand.`;

/**
 * `npm run alerts -- <command>`: runs one subcommand and answers the exit status. Failures are
 * one message on stderr, never a stack, and never a destination's URL or key.
 *
 * @example
 * process.exitCode = await main(['test', '--destination', 'slack'], io);
 */
export async function main(
  argv: readonly string[],
  io: AlertsIo,
  context: AlertsContext = {},
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    io.stderr(`${USAGE}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`alerts ${name}: not yet; the commands are: ${Object.keys(COMMANDS).join(', ')}\n\n`);
    io.stderr(`${USAGE}\n`);
    return 2;
  }
  return command(rest, io, context);
}
