import type { EmulatorOptions, EmulatorProfile } from './types.js';

/**
 * What each profile sets, as options applied under the caller's own (an explicit option always
 * wins). `contract` is the service as service.md describes it, the one the conformance suite
 * holds the emulator to; `real` is the service as its public documentation, forum and clients
 * show it (real-service.md, docs/emulator.md "Profiles"). A real-service behaviour that grows
 * an option of its own is switched on here, one line each.
 */
export const PROFILES: Record<EmulatorProfile, Readonly<EmulatorOptions>> = {
  contract: {},
  real: {
    // Responses give `expires_in` around 299 (vendor Guide).
    accessTokenTtlSeconds: 299,
    // Scope is required on every grant, the refresh grant included (vendor docs and forum).
    refreshRequiresScope: true,
    // Resource errors in the statusCode/requestId/error_description envelope (vendor Guide).
    errorStyle: 'envelope',
    // Mixed instant renderings, nulls and blanks, undocumented fields, DataContract XML,
    // gzip-looking continuation tokens.
    rendering: 'real',
    surpriseShare: 0.1,
  },
};

/**
 * The options a caller gave, over those of its profile.
 *
 * @example
 * withProfile({ profile: 'real', seed: 3 }); // { accessTokenTtlSeconds: 299, …, seed: 3 }
 */
export function withProfile(options: EmulatorOptions): EmulatorOptions {
  const profile = options.profile ?? 'contract';
  const base = PROFILES[profile];
  if (!base) {
    throw new RangeError(
      `emulator option profile must be one of ${Object.keys(PROFILES).join(', ')} (got ${JSON.stringify(profile)})`,
    );
  }
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  return { ...base, ...given };
}
