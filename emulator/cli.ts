import { parseArgs } from 'node:util';
import { parseFaults } from './cli-faults.js';
import { startEmulator } from './index.js';

/**
 * `npm run emulator`: runs the emulator until interrupted. Flags win over environment
 * variables; see docs/emulator.md. Every flag is checked before the server starts, so a bad
 * one ends the process with a message naming it instead of failing requests later.
 */

/** An integer flag; text that is not one is refused naming the flag. */
function integerFlag(flag: string, text: string | undefined): number {
  if (text === undefined || !/^-?\d+$/.test(text.trim())) {
    throw new RangeError(`--${flag} must be an integer (got ${JSON.stringify(text ?? '')})`);
  }
  return Number(text);
}

async function main(): Promise<void> {
  const env = process.env;
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: env.EMULATOR_PORT ?? '8080' },
      seed: { type: 'string', default: env.EMULATOR_SEED ?? '1' },
      gsms: { type: 'string', default: env.EMULATOR_GSMS ?? '2' },
      sites: { type: 'string', default: env.EMULATOR_SITES ?? '4' },
      endpoints: { type: 'string', default: env.EMULATOR_ENDPOINTS ?? '120' },
      now: { type: 'string', default: env.EMULATOR_NOW },
      faults: { type: 'string', default: env.EMULATOR_FAULTS ?? '' },
      'lax-user-agent': { type: 'boolean', default: false },
      profile: { type: 'string', default: env.EMULATOR_PROFILE ?? 'contract' },
    },
  });
  const profile = values.profile ?? 'contract';
  if (profile !== 'contract' && profile !== 'real') {
    throw new RangeError(`--profile must be contract or real (got ${JSON.stringify(profile)})`);
  }
  const emulator = await startEmulator({
    profile,
    port: integerFlag('port', values.port),
    seed: integerFlag('seed', values.seed),
    gsmCount: integerFlag('gsms', values.gsms),
    sitesPerGsm: integerFlag('sites', values.sites),
    endpointsPerGsm: integerFlag('endpoints', values.endpoints),
    now: values.now,
    faults: parseFaults(values.faults ?? ''),
    strictUserAgent: !values['lax-user-agent'],
  });
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
