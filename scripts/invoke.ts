import { readFileSync } from 'node:fs';
import { FUNCTIONS, type FunctionName, loadHandler } from './local/functions.js';
import { lambdaContext } from './local/lambda-context.js';

/**
 * Runs one function on this machine with an event, reading the same environment variables as
 * the deployed function (docs/operations.md). For operators as much as for us:
 *
 *   npx tsx scripts/invoke.ts report-fetcher '{"from":"2026-06-01","to":"2026-06-07"}'
 *   npx tsx scripts/invoke.ts infection-alerter @event.json
 */
async function main(): Promise<void> {
  const [name, eventArg = '{}'] = process.argv.slice(2);
  if (!name || !(name in FUNCTIONS)) {
    console.error(`usage: invoke <${Object.keys(FUNCTIONS).join('|')}> [event JSON | @file]`);
    process.exit(2);
  }
  const text = eventArg.startsWith('@') ? readFileSync(eventArg.slice(1), 'utf8') : eventArg;
  const handler = await loadHandler(name as FunctionName);
  const result = await handler(JSON.parse(text), lambdaContext(name, 900_000));
  console.log(JSON.stringify(result, null, 2));
}

main().catch((error: unknown) => {
  console.error(`invoke failed: ${(error as Error).name}: ${(error as Error).message}`);
  process.exit(1);
});
