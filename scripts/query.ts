import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { s3Client } from '../lib/aws/index.js';
import { isDay } from '../lib/index.js';
import { LOCAL_ARCHIVE, mirrorArchive } from './local/archive-mirror.js';
import { openArchive } from './query/archive-database.js';

const USAGE = `Usage: npm run query -- [options] "<sql>"

SQL over the report archive with DuckDB, with the Athena database's tables
(skywatch_archive.agent_status, dnsp_status, gsm_usage, site_usage, dnsp_usage).

  --archive DIR   a local copy of the bucket (default ${LOCAL_ARCHIVE}, what npm start writes)
  --bucket NAME   copy a deployed archive bucket into --archive first (AWS credentials and
                  AWS_REGION as for the AWS CLI); only new or changed objects are downloaded
  --since DAY     with --bucket: only report days from YYYY-MM-DD on
  --gsm KEY       with --bucket: only this GSM
  --json          print rows as JSON lines instead of a table`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      archive: { type: 'string', default: LOCAL_ARCHIVE },
      bucket: { type: 'string' },
      since: { type: 'string' },
      gsm: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const sql = positionals.join(' ').trim();
  if (values.help || !sql) {
    console.error(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  if (values.since && !isDay(values.since)) {
    throw new Error(`--since must be YYYY-MM-DD (got ${values.since})`);
  }
  if (values.bucket) {
    // The SDK's own chain (environment, profile, SSO); AWS_ENDPOINT_URL points it at moto.
    const out = await mirrorArchive(s3Client(), values.bucket, values.archive, {
      since: values.since,
      gsm: values.gsm,
    });
    console.error(
      `copied s3://${values.bucket} to ${out.folder}: ${out.downloaded} new or changed, ${out.unchanged} unchanged`,
    );
  } else if (!existsSync(values.archive)) {
    throw new Error(
      `no archive at ${values.archive}: run \`npm start\` first, or give --bucket (or --archive)`,
    );
  }
  const db = await openArchive(values.archive);
  try {
    const rows = await db.query(sql);
    if (values.json) for (const row of rows) console.log(JSON.stringify(row));
    else if (rows.length === 0) console.log('(no rows)');
    else console.table(rows.map(flatten));
  } finally {
    db.close();
  }
}

/** Structs and lists as JSON text, so a table cell shows them whole. */
const flatten = (row: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(row).map(([k, v]) => [
      k,
      v !== null && typeof v === 'object' ? JSON.stringify(v) : v,
    ]),
  );

main().catch((error: unknown) => {
  console.error(`query failed: ${(error as Error).message}`);
  process.exit(1);
});
