import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { s3Client } from '../../lib/aws/index.js';
import { isDay } from '../../lib/index.js';
import { LOCAL_ARCHIVE, mirrorArchive } from '../local/archive-mirror.js';
import { UsageError } from '../run-command.js';
import { openArchive } from './archive-database.js';
import { type OutputFormat, renderResult } from './formats.js';

export const USAGE = `Usage: npm run query -- [options] "<sql>"

SQL over the report archive with DuckDB, with the Athena database's tables
(skywatch_archive.agent_status, dnsp_status, gsm_usage, site_usage, dnsp_usage) and the view
skywatch_archive.agent_status_named (agent_status with each endpoint's sitename).

  --archive DIR   a local copy of the bucket (default ${LOCAL_ARCHIVE}, what npm start writes)
  --bucket NAME   copy a deployed archive bucket into --archive first (AWS credentials and
                  AWS_REGION as for the AWS CLI); only new or changed objects are downloaded
  --since DAY     with --bucket: only report days from YYYY-MM-DD on
  --gsm KEY       with --bucket: only this GSM
  --csv           print rows as CSV (RFC 4180, a header line) instead of a table
  --json          print rows as JSON lines instead of a table
  --max-rows N    a table shows at most N rows, the first and last (default 40; 0: all)`;

/** Where the command writes; the process's streams, or a test's buffers. */
export interface QueryOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** A mistake in the command line: the usage applies (exit 2). */
const parse = (argv: readonly string[]) =>
  parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      archive: { type: 'string', default: LOCAL_ARCHIVE },
      bucket: { type: 'string' },
      since: { type: 'string' },
      gsm: { type: 'string' },
      csv: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'max-rows': { type: 'string', default: '40' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });

function options(argv: readonly string[]) {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    // node:util's own text, e.g. "Unknown option '--cvs'".
    throw new UsageError((error as Error).message, { cause: error });
  }
  const { values, positionals } = parsed;
  if (values.csv && values.json) throw new UsageError('--csv and --json: choose one');
  if (values.since && !isDay(values.since)) {
    throw new UsageError(`--since must be YYYY-MM-DD (got ${values.since})`);
  }
  const maxRows = values['max-rows'];
  if (!/^\d+$/.test(maxRows)) {
    throw new UsageError(`--max-rows must be a whole number, 0 for all (got ${maxRows})`);
  }
  const format: OutputFormat = values.csv ? 'csv' : values.json ? 'json' : 'table';
  return { ...values, format, maxRows: Number(maxRows), sql: positionals.join(' ').trim() };
}

/**
 * `npm run query`: copies a bucket when asked, runs the SQL over the local archive and prints
 * the rows. Returns the exit status: 0, 1 when the query or the copy failed, 2 for a command
 * line it does not understand. Failures are one message on stderr, never a stack.
 */
export async function runQuery(argv: readonly string[], out: QueryOutput): Promise<number> {
  let args: ReturnType<typeof options>;
  try {
    args = options(argv);
  } catch (error) {
    out.stderr(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.help || !args.sql) {
    out.stderr(`${USAGE}\n`);
    return args.help ? 0 : 2;
  }
  try {
    if (args.bucket) {
      // The SDK's own chain (environment, profile, SSO); AWS_ENDPOINT_URL points it at moto.
      const copied = await mirrorArchive(s3Client(), args.bucket, args.archive, {
        since: args.since,
        gsm: args.gsm,
      });
      out.stderr(
        `copied s3://${args.bucket} to ${copied.folder}: ${copied.downloaded} new or changed, ${copied.unchanged} unchanged\n`,
      );
    } else if (!existsSync(args.archive)) {
      throw new Error(
        `no archive at ${args.archive}: run \`npm start\` first, or give --bucket (or --archive)`,
      );
    }
  } catch (error) {
    out.stderr(`query failed: ${(error as Error).message}\n`);
    return 1;
  }
  const db = await openArchive(args.archive);
  try {
    const result = await db.result(args.sql);
    out.stdout(renderResult(result, args.format, { maxRows: args.maxRows }));
    return 0;
  } catch (error) {
    // DuckDB's own text ("Parser Error: …", with the line and a caret) or ours for a missing
    // table or column: either is the whole story.
    out.stderr(`${(error as Error).message}\n`);
    return 1;
  } finally {
    db.close();
  }
}
