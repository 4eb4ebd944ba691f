/**
 * Public types of the service emulator. Tests, the local run and the benchmarks start it with
 * `startEmulator(options)` from `emulator/index.ts`; `npm run emulator` exposes the same options
 * as flags.
 */

/** Operation names used by fault rules, stats and the admin API. */
export const OPERATIONS = [
  'token',
  'status.site',
  'status.site.dnsp',
  'status.gsm',
  'status.gsm.dnsp',
  'report.gsm',
  'report.sites',
  'report.site',
  'report.site.dnsp',
  'blockedUrls',
  'cart.customers',
  'health',
] as const;
export type OperationName = (typeof OPERATIONS)[number];

/** Fault kinds; see FaultKind. */
export const FAULT_KINDS = [
  'status',
  'latency',
  'reset',
  'truncate',
  'malformed',
  'revoke',
  'wrong-type',
] as const;

/**
 * Statuses a `status` fault may answer: the ones a rate limiter, a failing service or a proxy
 * in front of it sends. 4xx statuses other than 429 are the client's fault, not the service's,
 * and 408 means the client was too slow to send its request, which the emulator does not model.
 */
export const FAULT_STATUSES = [429, 500, 502, 503, 504] as const;

export type FaultKind =
  /** Answer with `status` (429, 500, 502, 503, 504) and a problem body; 429/503 carry Retry-After. */
  | 'status'
  /** Wait `latencyMs` before handling the request normally. */
  | 'latency'
  /** Send the status line and half of the body, then destroy the socket. */
  | 'reset'
  /** Send a 200 whose JSON body is cut short (Content-Length matches what is sent). */
  | 'truncate'
  /** Send a 200 whose body is not JSON at all. */
  | 'malformed'
  /** Revoke every access token, then handle the request (so it fails with 401). */
  | 'revoke'
  /**
   * Send a 200 JSON answer with one field of the wrong type: the last boolean, depth first, of
   * the first `QueryResults` entry (of the body when it has no entries) becomes the string
   * `"true"`/`"false"`, e.g. `QueryResults[0].BasicInfo.Infected` with returnedInfo=BasicInfo.
   */
  | 'wrong-type';

export interface FaultRule {
  /** Operation the rule applies to; `'*'` (default) for every operation but admin. */
  operation?: OperationName | '*';
  /** Only requests whose URL path contains this text, e.g. one site's key code. */
  pathIncludes?: string;
  kind: FaultKind;
  /** For kind `status` (default 503). */
  status?: (typeof FAULT_STATUSES)[number];
  /** Chance per matching request, 0..1 (default 1). Drawn from a PRNG seeded by the dataset seed. */
  probability?: number;
  /** Fire at most this many times (default unlimited). */
  count?: number;
  /** Let this many matching requests through before the rule may fire (default 0). */
  afterRequests?: number;
  /** Retry-After seconds for 429/503 (default 1). */
  retryAfterSeconds?: number;
  /** For kind `latency` (default 100). */
  latencyMs?: number;
  /**
   * For kind `status`: `html` answers with a proxy's HTML page instead of the error body (the
   * real service's 503s can come from a proxy in front of it). @default 'error'
   */
  body?: 'error' | 'html';
}

export interface EmulatorUser {
  username: string;
  password: string;
  /** Scopes this user may be granted; `{base_url}` stands for the base URL scope. */
  scopes: string[];
}

export interface EmulatorClient {
  clientId: string;
  clientSecret: string;
}

/** Which service the emulator stands in for; see emulator/profiles.ts. */
export type EmulatorProfile = 'contract' | 'real';

export interface EmulatorOptions {
  /**
   * Defaults for the other options: `contract` (default) is the service as service.md describes
   * it; `real` as its public documentation and clients show it (docs/emulator.md "Profiles").
   * Options given explicitly win over the profile's.
   */
  profile?: EmulatorProfile;
  /**
   * How successful answers are written: `contract` (default) as service.md shows them, `real`
   * as the real service writes them (mixed instant renderings, nulls and blanks, undocumented
   * fields, DataContract XML, gzip-looking continuation tokens).
   */
  rendering?: 'contract' | 'real';
  /**
   * With the real rendering, the share of entries (0..1) carrying a null and a blank in fields
   * typed as plain values; seeded, so the same entries every time. Default 0.1 in the real profile.
   */
  surpriseShare?: number;
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Seed of the deterministic dataset and of fault draws. Default 1. */
  seed?: number;
  /** Default 2. */
  gsmCount?: number;
  /** Default 4. */
  sitesPerGsm?: number;
  /** Endpoints per GSM, spread over its sites. Default 120. Scales to 1,000,000. */
  endpointsPerGsm?: number;
  /** Number of shop carts (a third of them of type reseller). Default 6. */
  cartCount?: number;
  /**
   * Start of the emulator clock. When given the clock is frozen at that instant and moves only
   * through the admin API (`advance`); when omitted it follows real time.
   */
  now?: Date | string;
  /** Default 300. */
  accessTokenTtlSeconds?: number;
  /** Default 14 days. */
  refreshTokenTtlSeconds?: number;
  /** Reject requests without a User-Agent (default true). */
  strictUserAgent?: boolean;
  /** How the token response renders `scope` (default 'json'). */
  scopeStyle?: 'json' | 'bare';
  /** Revoke a token family when a dead refresh token is presented again (default true). */
  reuseDetection?: boolean;
  /**
   * Refuse a refresh grant without `scope` with 400 `invalid_request`, as the real service
   * does (default false: omitted scope means the original grant's scopes, RFC 6749 §6).
   */
  refreshRequiresScope?: boolean;
  /**
   * How resource errors are rendered (token-endpoint errors stay RFC 6749 JSON): `problem`
   * (default) RFC 9457 problem details; `envelope` the real service's
   * `{statusCode, requestId, error, error_description, AdditionalInformation}`, and status
   * faults without `retryAfterSeconds` then carry no Retry-After, as the real service's 429s.
   */
  errorStyle?: 'problem' | 'envelope';
  /** Days of blocked-URL history (default 90). */
  blockedUrlHistoryDays?: number;
  /** Days of usage reports kept (default 400). */
  reportRetentionDays?: number;
  faults?: FaultRule[];
  clients?: EmulatorClient[];
  users?: EmulatorUser[];
  /** Identity provider whose JWTs the token-exchange grant accepts (HS256). */
  idp?: { issuer: string; audience: string; key: string };
}

export interface SiteInfo {
  key: string;
  id: string;
  name: string;
  gsmKey: string;
  endpointCount: number;
  dnspEnabled: boolean;
  licenseType: string;
}

export interface GsmInfo {
  key: string;
  name: string;
  endpointCount: number;
  sites: SiteInfo[];
}

export interface CartInfo {
  vendorOrderCode: string;
  type: 'standard' | 'reseller';
}

/** What `GET /__admin/info` answers and `Emulator.info()` returns. */
export interface EmulatorInfo {
  baseUrl: string;
  authUrl: string;
  tokenUrl: string;
  adminUrl: string;
  now: string;
  client: EmulatorClient;
  users: EmulatorUser[];
  idp: { issuer: string; audience: string; key: string };
  gsms: GsmInfo[];
  carts: CartInfo[];
}

export interface EmulatorStats {
  requests: number;
  byOperation: Partial<Record<OperationName | 'admin', number>>;
  tokenGrants: { password: number; token_exchange: number; refresh_token: number; failed: number };
  faultsInjected: number;
}

/** Changes an operator can make to an endpoint through the admin API. */
export type EndpointAction =
  | 'infect'
  | 'clean'
  | 'hide'
  | 'unhide'
  | 'deactivate'
  | 'reactivate'
  | 'touch'
  // Health states (health alerts): protection, last seen, agent installed, another antivirus.
  | 'protection-off'
  | 'protection-on'
  | 'go-offline'
  | 'come-online'
  | 'uninstall'
  | 'reinstall'
  | 'other-av-on'
  | 'other-av-off';

/** A running emulator. The control methods are the admin API without HTTP. */
export interface Emulator {
  readonly baseUrl: string;
  readonly authUrl: string;
  readonly tokenUrl: string;
  readonly adminUrl: string;
  readonly port: number;
  info(): EmulatorInfo;
  now(): Date;
  advanceClock(seconds: number): Date;
  setFaults(faults: FaultRule[]): void;
  endpointAction(machineId: string, action: EndpointAction, threat?: string): void;
  /** MachineIDs of a site (first `limit`, default 10). */
  machineIds(siteKey: string, limit?: number): string[];
  /** Moves a site's licence expiry to `days` after the data's anchor (0: expired). */
  setSiteLicence(siteKey: string, days: number): void;
  /** Enrol `count` new endpoints in a site; returns their MachineIDs. */
  enrol(siteKey: string, count: number): string[];
  /** Add `count` blocked-URL actions to a site on a day (YYYY-MM-DD). */
  addBlockedUrls(siteId: string, date: string, count: number): void;
  revokeTokens(): void;
  stats(): EmulatorStats;
  resetStats(): void;
  close(): Promise<void>;
}
