import { parseArgs } from 'node:util';
import { startEmulator } from './index.js';
import { type FaultKind, type FaultRule, OPERATIONS, type OperationName } from './types.js';

/**
 * `npm run emulator`: runs the emulator until interrupted. Flags win over environment
 * variables; see docs/emulator.md.
 */

const KINDS: FaultKind[] = [
  'status',
  'latency',
  'reset',
  'truncate',
  'malformed',
  'revoke',
  'wrong-type',
];

/** `operation:kind[:status][:probability]`, e.g. `status.gsm:status:503:0.1,*:latency:0.5`. */
export function parseFaults(text: string): FaultRule[] {
  return text
    .split(',')
    .filter((s) => s.trim().length > 0)
    .map((spec) => {
      const [operation = '*', kind = '', ...rest] = spec.trim().split(':');
      if (operation !== '*' && !(OPERATIONS as readonly string[]).includes(operation)) {
        throw new Error(
          `unknown operation in fault ${spec}; use one of *, ${OPERATIONS.join(', ')}`,
        );
      }
      if (!(KINDS as string[]).includes(kind))
        throw new Error(`unknown fault kind in ${spec}; use ${KINDS.join(', ')}`);
      const rule: FaultRule = {
        operation: operation as OperationName | '*',
        kind: kind as FaultKind,
      };
      if (kind === 'status') rule.status = Number(rest.shift()) as FaultRule['status'];
      if (rest[0] !== undefined) rule.probability = Number(rest[0]);
      return rule;
    });
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
    },
  });
  const emulator = await startEmulator({
    port: Number(values.port),
    seed: Number(values.seed),
    gsmCount: Number(values.gsms),
    sitesPerGsm: Number(values.sites),
    endpointsPerGsm: Number(values.endpoints),
    now: values.now,
    faults: parseFaults(values.faults ?? ''),
    strictUserAgent: !values['lax-user-agent'],
  });
  const info = emulator.info();
  const user = info.users[0];
  const firstGsm = info.gsms[0];
  console.log(`Skywatch service emulator ready (clock ${info.now})
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
