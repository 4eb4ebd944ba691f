import { parseArgs } from 'node:util';
import { parseFaults } from './cli-faults.js';
import type { EmulatorOptions, EmulatorProfile } from './types.js';

/**
 * The options `npm run emulator` starts the emulator with, from its flags, which win over the
 * environment variables (docs/emulator.md). A bad flag is refused here, naming it, before a
 * server starts; `resolveOptions` then checks the values as it does for every caller.
 */
export function cliOptions(
  args: string[],
  env: NodeJS.ProcessEnv,
): EmulatorOptions & { profile: EmulatorProfile } {
  const { values } = parseArgs({
    args,
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
  return {
    profile,
    port: integerFlag('port', values.port),
    seed: integerFlag('seed', values.seed),
    gsmCount: integerFlag('gsms', values.gsms),
    sitesPerGsm: integerFlag('sites', values.sites),
    endpointsPerGsm: integerFlag('endpoints', values.endpoints),
    now: values.now,
    faults: parseFaults(values.faults ?? ''),
    strictUserAgent: !values['lax-user-agent'],
  };
}

/** An integer flag; text that is not one is refused naming the flag. */
function integerFlag(flag: string, text: string | undefined): number {
  if (text === undefined || !/^-?\d+$/.test(text.trim())) {
    throw new RangeError(`--${flag} must be an integer (got ${JSON.stringify(text ?? '')})`);
  }
  return Number(text);
}
