import { parseFaultRules } from './fault-rules.js';
import { withProfile } from './profiles.js';
import type { EmulatorClient, EmulatorOptions, EmulatorUser, FaultRule } from './types.js';

/** The base URL scope placeholder in user scope lists (spec 5.3: the scope is `{base_url}`). */
export const BASE_URL_SCOPE = '{base_url}';

export const DEMO_CLIENT: EmulatorClient = {
  clientId: 'skywatch-demo',
  clientSecret: 'demo-client-secret',
};

export const DEMO_USERS: EmulatorUser[] = [
  {
    username: 'ops@example.com',
    password: 'demo-password',
    scopes: [
      BASE_URL_SCOPE,
      'SkyStatus.GSM',
      'SkyStatus.Reporting',
      'Console.GSM',
      'ECom.Shop',
      'ECom.Orders',
      'ECom.Licenses',
      'SecureCloud.Usage',
    ],
  },
  {
    username: 'reports@example.com',
    password: 'reports-password',
    scopes: ['SkyStatus.Reporting'],
  },
];

export const DEMO_IDP = {
  issuer: 'https://idp.example.com',
  audience: 'skywatch',
  key: 'demo-idp-signing-key',
};

export interface ResolvedOptions {
  profile: 'contract' | 'real';
  rendering: 'contract' | 'real';
  surpriseShare: number;
  port: number;
  host: string;
  seed: number;
  gsmCount: number;
  sitesPerGsm: number;
  endpointsPerGsm: number;
  cartCount: number;
  now: number | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  strictUserAgent: boolean;
  scopeStyle: 'json' | 'bare';
  reuseDetection: boolean;
  refreshRequiresScope: boolean;
  errorStyle: 'problem' | 'envelope';
  blockedUrlHistoryDays: number;
  reportRetentionDays: number;
  faults: FaultRule[];
  clients: EmulatorClient[];
  users: EmulatorUser[];
  idp: { issuer: string; audience: string; key: string };
}

function integerIn(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(
      `emulator option ${name} must be an integer from ${min} to ${max} (got ${value})`,
    );
  }
  return value;
}

function positiveInt(name: string, value: number, max: number): number {
  return integerIn(name, value, 1, max);
}

function errorStyle(style: EmulatorOptions['errorStyle']): ResolvedOptions['errorStyle'] {
  if (style === undefined) return 'problem';
  if (style !== 'problem' && style !== 'envelope') {
    throw new RangeError(
      `emulator option errorStyle must be 'problem' or 'envelope' (got ${JSON.stringify(style)})`,
    );
  }
  return style;
}

/** Applies defaults and rejects impossible shapes early, with the option's name. */
export function resolveOptions(given: EmulatorOptions = {}): ResolvedOptions {
  const options = withProfile(given);
  const share = options.surpriseShare ?? 0;
  if (!(share >= 0 && share <= 1)) {
    throw new RangeError(`emulator option surpriseShare must be from 0 to 1 (got ${share})`);
  }
  if (options.rendering !== undefined && !['contract', 'real'].includes(options.rendering)) {
    throw new RangeError(
      `emulator option rendering must be contract or real (got ${JSON.stringify(options.rendering)})`,
    );
  }
  const now = options.now === undefined ? undefined : new Date(options.now).getTime();
  if (now !== undefined && Number.isNaN(now)) {
    throw new RangeError(`emulator option now is not a valid instant: ${String(options.now)}`);
  }
  const sitesPerGsm = positiveInt('sitesPerGsm', options.sitesPerGsm ?? 4, 10_000);
  const endpointsPerGsm = positiveInt(
    'endpointsPerGsm',
    options.endpointsPerGsm ?? 120,
    50_000_000,
  );
  if (endpointsPerGsm < sitesPerGsm) {
    throw new RangeError('emulator option endpointsPerGsm must be at least sitesPerGsm');
  }
  return {
    profile: options.profile ?? 'contract',
    rendering: options.rendering ?? 'contract',
    surpriseShare: share,
    port: integerIn('port', options.port ?? 0, 0, 65_535),
    host: options.host ?? '127.0.0.1',
    seed: integerIn('seed', options.seed ?? 1, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    gsmCount: positiveInt('gsmCount', options.gsmCount ?? 2, 255),
    sitesPerGsm,
    endpointsPerGsm,
    cartCount: positiveInt('cartCount', options.cartCount ?? 6, 100_000),
    now,
    accessTokenTtlSeconds: positiveInt(
      'accessTokenTtlSeconds',
      options.accessTokenTtlSeconds ?? 300,
      86_400,
    ),
    refreshTokenTtlSeconds: positiveInt(
      'refreshTokenTtlSeconds',
      options.refreshTokenTtlSeconds ?? 14 * 86_400,
      365 * 86_400,
    ),
    strictUserAgent: options.strictUserAgent ?? true,
    scopeStyle: options.scopeStyle ?? 'json',
    reuseDetection: options.reuseDetection ?? true,
    refreshRequiresScope: options.refreshRequiresScope ?? false,
    errorStyle: errorStyle(options.errorStyle),
    blockedUrlHistoryDays: positiveInt(
      'blockedUrlHistoryDays',
      options.blockedUrlHistoryDays ?? 90,
      3650,
    ),
    reportRetentionDays: positiveInt(
      'reportRetentionDays',
      options.reportRetentionDays ?? 400,
      3650,
    ),
    // Checked here, not on the first request: a bad status would crash the server there.
    faults: parseFaultRules(options.faults ?? [], 'emulator option faults'),
    clients: options.clients ?? [DEMO_CLIENT],
    users: options.users ?? DEMO_USERS,
    idp: options.idp ?? DEMO_IDP,
  };
}
