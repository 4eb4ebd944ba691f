import {
  allOperationScopes,
  ClientEmitter,
  type ClientEvents,
  FUNCTION_OPERATIONS,
  type FunctionName,
  functionScopes,
  missingScopes,
  SkywatchClient,
  TokenManager,
  Transport,
  userAgent,
} from '../../lib/index.js';
import { explain } from './explain.js';
import { probeOperations } from './operations.js';
import type { CheckRow } from './report.js';
import type { DoctorSettings } from './settings.js';

/** Past this, clock skew is worth a look; past the fail limit, a token's lifetime is at risk. */
const SKEW_WARN_MS = 5_000;
const SKEW_FAIL_MS = 120_000;
const EXPECTED_NAME = 'Webroot.UnityAPI.APIServer';

export interface DoctorOptions {
  /** Per-attempt timeout of each call. @default 5000 */
  attemptTimeoutMs?: number;
}

async function healthRows(client: SkywatchClient, rows: CheckRow[]): Promise<boolean> {
  try {
    const ping = await client.ping();
    rows.push({
      check: 'reachable',
      verdict: 'ok',
      detail: `ping answered in ${ping.roundTripMs} ms`,
    });
    if (ping.serviceTime === undefined) {
      rows.push({
        check: 'clock skew',
        verdict: 'warn',
        detail: 'the answer carried no readable Date header',
        fix: 'cannot measure skew; keep this machine on NTP',
      });
    } else {
      // A Date header is truncated to the second: its middle is the better estimate.
      const skew = Math.round(ping.serviceTime + 500 - ping.localTime);
      const size = Math.abs(skew);
      const detail = `this clock is ${Math.round(size / 1000)} s ${skew > 0 ? 'behind' : 'ahead of'} the service's`;
      rows.push(
        size <= SKEW_WARN_MS
          ? { check: 'clock skew', verdict: 'ok', detail }
          : {
              check: 'clock skew',
              verdict: size > SKEW_FAIL_MS ? 'fail' : 'warn',
              detail,
              fix: 'synchronise this clock (NTP): report days and token expiry are reckoned on it',
            },
      );
    }
  } catch (error) {
    rows.push({ check: 'reachable', verdict: 'fail', ...explain(error, 'service') });
    return false;
  }
  try {
    const { value } = await client.serviceVersion();
    const named = `${value.Name ?? '(no name)'} ${value.Version ?? '(no version)'}`;
    rows.push(
      value.Name === EXPECTED_NAME
        ? { check: 'version', verdict: 'ok', detail: named }
        : {
            check: 'version',
            verdict: 'warn',
            detail: named,
            fix: `expected ${EXPECTED_NAME}: check SKYWATCH_BASE_URL points at the service`,
          },
    );
  } catch (error) {
    rows.push({ check: 'version', verdict: 'fail', ...explain(error, 'service') });
  }
  return true;
}

/** Each grant the configuration uses, in the order the token refresher uses them. */
async function grantRows(
  tokens: TokenManager,
  first: 'password' | 'token_exchange',
  fallbacks: ClientEvents['tokenFallback'][],
  rows: CheckRow[],
): Promise<string[] | undefined> {
  let granted: string[];
  try {
    granted = [...((await tokens.getToken()).scopes ?? [])];
    rows.push({ check: `grant ${first}`, verdict: 'ok', detail: `granted ${granted.join(' ')}` });
  } catch (error) {
    rows.push({ check: `grant ${first}`, verdict: 'fail', ...explain(error, 'token') });
    return undefined;
  }
  const before = fallbacks.length;
  try {
    const current = await tokens.getToken();
    tokens.invalidate(current.value);
    await tokens.getToken();
    const fell = fallbacks[before];
    rows.push(
      fell
        ? {
            check: 'grant refresh_token',
            verdict: 'fail',
            detail: `the refresh was refused (${fell.error}${fell.status ? `, HTTP ${fell.status}` : ''}); the password grant stood in`,
            fix: 'every refresh would need the password: report the refusal with this detail',
          }
        : { check: 'grant refresh_token', verdict: 'ok', detail: 'rotated with scope' },
    );
  } catch (error) {
    rows.push({ check: 'grant refresh_token', verdict: 'fail', ...explain(error, 'token') });
  }
  return granted;
}

function scopeRows(settings: DoctorSettings, granted: string[], rows: CheckRow[]): void {
  for (const fn of Object.keys(FUNCTION_OPERATIONS) as FunctionName[]) {
    const needed = functionScopes(fn, settings.baseUrl);
    if (needed.length === 0) continue;
    const missing = missingScopes(needed, granted);
    rows.push(
      missing.length === 0
        ? { check: `scopes ${fn}`, verdict: 'ok', detail: needed.join(' ') }
        : {
            check: `scopes ${fn}`,
            verdict: 'fail',
            detail: `missing ${missing.join(' ')}`,
            fix: `grant ${missing.join(' ')} to the user (and the configured scope, if set)`,
          },
    );
  }
}

/**
 * The connection check of `npm run doctor`: reachable, version, clock skew, each grant, the
 * scopes each function needs, and one page of each operation the functions call.
 */
export async function runChecks(
  settings: DoctorSettings,
  options: DoctorOptions = {},
): Promise<CheckRow[]> {
  const rows: CheckRow[] = [
    {
      check: 'settings',
      verdict: 'ok',
      detail: `base ${settings.baseUrl}, auth ${settings.authUrl}, credentials from ${settings.source}`,
    },
  ];
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 5_000;
  const retry = { maxAttempts: 2, maxTotalWaitMs: 2_000 };
  const fallbacks: ClientEvents['tokenFallback'][] = [];
  const events = new ClientEmitter({ onTokenFallback: (e) => fallbacks.push(e) });
  const transport = new Transport({
    userAgent: userAgent('doctor'),
    events,
    attemptTimeoutMs,
    retry,
  });
  const c = settings.credentials;
  const first =
    c.username && c.password ? 'password' : c.subjectToken ? 'token_exchange' : undefined;
  const scopes = c.scope?.split(' ').filter(Boolean) ?? allOperationScopes(settings.baseUrl);
  const tokens = new TokenManager(transport, {
    tokenUrl: `${settings.authUrl}/auth/token`,
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    clientAuth: c.clientAuth,
    scopes,
    ...(first === 'password' ? { username: c.username, password: c.password } : {}),
    ...(first === 'token_exchange' ? { subjectToken: c.subjectToken } : {}),
  });
  const client = new SkywatchClient({
    baseUrl: settings.baseUrl,
    auth: tokens,
    userAgentSuffix: 'doctor',
    attemptTimeoutMs,
    retry,
  });
  if (!(await healthRows(client, rows))) return rows;
  if (!first) {
    rows.push({
      check: 'grants',
      verdict: 'fail',
      detail: 'the credentials hold neither username and password nor a subject token',
      fix: 'add username and password (or subjectToken) to the credentials',
    });
    return rows;
  }
  const granted = await grantRows(tokens, first, fallbacks, rows);
  if (!granted) return rows;
  scopeRows(settings, granted, rows);
  rows.push(...(await probeOperations(client, settings.gsmKeys)));
  return rows;
}
