import { parseArgs } from 'node:util';
import { NotifierSecret } from '../../functions/alert-notifier/destinations.js';
import type { PostOptions } from '../../functions/alert-notifier/post.js';
import {
  DestinationNotConfiguredError,
  sendTestAlert,
  TestAlertUnroutedError,
  type TestResult,
} from '../../functions/alert-notifier/test-alert.js';
import { LEGACY_DESTINATIONS, RoutingDocumentError } from '../../lib/alerts/index.js';
import { SecretError, SecretStore, secretsClient } from '../../lib/aws/index.js';
import { redact } from '../../lib/index.js';
import { UsageError } from '../run-command.js';
import type { AlertsCommand } from './main.js';
import { routingFromParameter } from './routing-source.js';

export const TEST_USAGE = `Options of test:
  --destination NAME        only this destination of the secret (slack, teams, pagerduty,
                            webhook, or a name under its destinations), whatever the routing
  --secret-arn ARN          the notifier's secret, the stack output NotifierSecretArn (default:
                            the environment's NOTIFIER_SECRET_ARN)
  --routing-parameter NAME  the routing document, the stack output AlertRoutingParameter
                            (default: the environment's ALERT_ROUTING_PARAMETER): the test alert
                            goes where it routes it; without one, to every destination
Read with the AWS CLI's credentials and AWS_REGION. It prints one line per destination and
event: destination, event, HTTP status, outcome.`;

/**
 * Someone waits at the terminal: a few attempts with a short back-off, at most about half a
 * minute for a receiver that never answers, judged by the notifier's own contracts.
 */
const POST_OPTIONS: PostOptions = {
  maxAttempts: 3,
  attemptTimeoutMs: 5_000,
  baseDelayMs: 500,
  maxDelayMs: 5_000,
};

/** A mistake in the command line: the usage applies (exit 2). */
function options(argv: readonly string[], env: NodeJS.ProcessEnv) {
  let values: {
    destination?: string;
    'secret-arn'?: string;
    'routing-parameter'?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        destination: { type: 'string' },
        'secret-arn': { type: 'string' },
        'routing-parameter': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    // node:util's own text, e.g. "Unknown option '--destinaton'".
    throw new UsageError((error as Error).message, { cause: error });
  }
  const secretArn = values['secret-arn'] ?? env.NOTIFIER_SECRET_ARN;
  if (!values.help && !secretArn?.trim())
    throw new UsageError(
      'no secret: give --secret-arn, or set NOTIFIER_SECRET_ARN (the stack output NotifierSecretArn)',
    );
  // With --destination, the routing does not matter: it is not read.
  const routing = values.destination
    ? undefined
    : (values['routing-parameter'] ?? env.ALERT_ROUTING_PARAMETER)?.trim() || undefined;
  return {
    destination: values.destination,
    secretArn: secretArn ?? '',
    routing,
    help: values.help,
  };
}

const WIDTH = Math.max(...LEGACY_DESTINATIONS.map((d) => d.length));

/** `slack     trigger  200 delivered`, `pagerduty resolve  400 refused: …`. */
export function resultLine(result: TestResult, width = WIDTH): string {
  const status = result.status === undefined ? '---' : String(result.status);
  const said =
    result.outcome === 'delivered' ? 'delivered' : `${result.outcome}: ${result.message ?? ''}`;
  return `${result.destination.padEnd(width)} ${result.action.padEnd(7)}  ${status} ${said}`;
}

/** `npm run alerts -- test`: a test alert to each destination, a line for each answer. */
export const testCommand: AlertsCommand = async (argv, io, context) => {
  let args: ReturnType<typeof options>;
  try {
    args = options(argv, context.env ?? process.env);
  } catch (error) {
    io.stderr(`alerts test: ${(error as Error).message}\n\n${TEST_USAGE}\n`);
    return 2;
  }
  if (args.help) {
    io.stderr(
      `Usage: npm run alerts -- test [--destination NAME] [--secret-arn ARN] [--routing-parameter NAME]\n\n`,
    );
    io.stderr(`${TEST_USAGE}\n`);
    return 0;
  }
  let results: TestResult[];
  try {
    const store = new SecretStore(context.secrets ?? secretsClient());
    const secret = await store.read(args.secretArn, NotifierSecret);
    const routing = args.routing
      ? await routingFromParameter(args.routing, context.ssm)
      : undefined;
    results = await sendTestAlert(
      secret,
      { ...POST_OPTIONS, origin: 'npm run alerts -- test' },
      { destination: args.destination, routing },
    );
  } catch (error) {
    // Ours say what to fix (the configured destinations, the secret's bad field, the routing
    // document's problems); anything else is unexpected, and said as such.
    const ours =
      error instanceof DestinationNotConfiguredError ||
      error instanceof TestAlertUnroutedError ||
      error instanceof RoutingDocumentError ||
      error instanceof SecretError;
    const text = redact(error instanceof Error ? error.message : String(error));
    io.stderr(`alerts test${ours ? '' : ' failed'}: ${text}\n`);
    return 1;
  }
  const width = Math.max(WIDTH, ...results.map((r) => r.destination.length));
  for (const result of results) io.stdout(`${resultLine(result, width)}\n`);
  const delivered = results.filter((r) => r.outcome === 'delivered').length;
  io.stderr(`test alert ${results[0]?.alertId}: ${delivered} of ${results.length} delivered\n`);
  return delivered === results.length ? 0 : 1;
};
