import { cliOptions } from './cli-options.js';
import { startEmulator } from './index.js';

/**
 * `npm run emulator`: runs the emulator until interrupted. Flags win over environment
 * variables; see docs/emulator.md. Every flag is checked before the server starts, so a bad
 * one ends the process with a message naming it instead of failing requests later.
 */
async function main(): Promise<void> {
  const options = cliOptions(process.argv.slice(2), process.env);
  const { profile } = options;
  const emulator = await startEmulator(options);
  const info = emulator.info();
  const user = info.users[0];
  const firstGsm = info.gsms[0];
  console.log(`Skywatch service emulator ready (${profile} profile, clock ${info.now})
  base URL   ${info.baseUrl}
  token URL  ${info.tokenUrl}
  admin URL  ${info.adminUrl}/info
  client     ${info.client.clientId} / ${info.client.clientSecret}
  user       ${user?.username} / ${user?.password}
  GSMs       ${info.gsms.map((g) => `${g.key} (${g.sites.length} sites, ${g.endpointCount} endpoints)`).join(', ')}
Try:
  TOKEN=$(curl -s -u ${info.client.clientId}:${info.client.clientSecret} -A demo \\
    -d grant_type=password -d username=${user?.username} -d password=${user?.password} \\
    -d scope=SkyStatus.GSM ${info.tokenUrl} | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')
  curl -s -A demo -H "Authorization: Bearer $TOKEN" "${info.baseUrl}/api/status/gsm/${firstGsm?.key}?batchSize=2"`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(`emulator: ${(error as Error).message}`);
    process.exit(1);
  });
}
