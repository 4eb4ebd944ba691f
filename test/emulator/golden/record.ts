/**
 * Records the golden fixtures from the code checked out now:
 *   npx tsx test/emulator/golden/record.ts status        > test/emulator/golden/status-pages.json
 *   npx tsx test/emulator/golden/record.ts counts small  (one dataset per process)
 * Only for an intended change of output: the fixtures exist to prove that speed work changed
 * no byte, so they were recorded from the implementation before it.
 */
import { startEmulator } from '../../../emulator/index.js';
import { blockedUrlCases, COUNT_CONFIGS, STATUS_OPTIONS, statusPageDigests } from './cases.js';

const [what, config = ''] = process.argv.slice(2);
if (what === 'status') {
  const em = await startEmulator(STATUS_OPTIONS);
  console.log(JSON.stringify(await statusPageDigests(em), null, 2));
  await em.close();
} else if (what === 'counts' && COUNT_CONFIGS[config]) {
  const em = await startEmulator(COUNT_CONFIGS[config]);
  console.log(JSON.stringify(await blockedUrlCases(em)));
  await em.close();
} else {
  console.error(`usage: record.ts status | counts ${Object.keys(COUNT_CONFIGS).join('|')}`);
  process.exit(2);
}
