import { type CredentialsAuth, credentialsTokenManager } from '../auth/credentials.js';
import { StaticTokenSource } from '../auth/static-token.js';
import { TokenManager } from '../auth/token-manager.js';
import type { TokenSource } from '../auth/token-source.js';
import { type Clock, systemClock } from '../http/clock.js';
import type { DeadlineOptions } from '../http/deadline.js';
import { ClientEmitter, type ClientHooks } from '../http/events.js';
import type { RetryOptions } from '../http/retry.js';
import { Transport } from '../http/transport.js';
import type { WindowLimits } from '../validation/dates.js';
import { userAgent } from '../version.js';
import type { XmlCodec } from '../xml/codec.js';
import type { ClientContext, Format } from './context.js';
import { ClientOperations } from './operations.js';
import type { SurpriseEvent } from './read.js';

export interface SkywatchClientOptions extends DeadlineOptions {
  /** `{base_url}`, e.g. `https://host/service` (a trailing slash is ignored). */
  baseUrl: string;
  /** `{auth_url}`; needed when `auth` holds credentials. */
  authUrl?: string;
  /** A token source (TokenManager, StaticTokenSource, your own), a token, or credentials. */
  auth: TokenSource | CredentialsAuth | string;
  /** Appended to the User-Agent, e.g. the function's name. */
  userAgentSuffix?: string;
  /** @default 10000 */
  attemptTimeoutMs?: number;
  retry?: RetryOptions;
  clock?: Clock;
  hooks?: ClientHooks;
  /** Representation of 4.8–4.10. @default 'json' */
  format?: Format;
  /**
   * The XML codec (`xmlCodec` from lib/xml), needed to use `format: 'xml'`. Passed in rather
   * than imported so that JSON-only code does not bundle fast-xml-parser.
   * @default none: asking for XML fails with a ValidationError before any request
   */
  xml?: XmlCodec;
  /** Limits of the 4.9 window. @default { maxRangeDays: 30, historyDays: 90 } */
  blockedUrlLimits?: WindowLimits;
  /** Fail before sending when the token's granted scopes lack the operation's. @default true */
  checkScopes?: boolean;
  /**
   * Fail on the first field of an answer that breaks the contract (a SchemaError naming it),
   * instead of delivering the answer without it and reporting it through `onSurprise`. For
   * conformance tests of an emulator or a service; production code reads tolerantly.
   * @default false
   */
  strict?: boolean;
  /**
   * Called for each field of an answer that surprised the reader: its path and rule, never its
   * value. Functions count and log these (functions/shared/surprises.ts).
   */
  onSurprise?: (surprise: SurpriseEvent) => void;
}

function isTokenSource(auth: unknown): auth is TokenSource {
  return typeof (auth as TokenSource).getToken === 'function';
}

/**
 * The Skywatch service client: every operation of 4.1–4.11, typed and validated, over one
 * transport and one token source. 4.1–4.10 are its methods; 4.11 (POST {auth_url}/auth/token)
 * is used through the token source, a `TokenManager` built from `auth` credentials that calls
 * `requestToken` (both usable on their own, see docs/client.md "A token").
 *
 * @example
 * const client = new SkywatchClient({ baseUrl, authUrl, auth: { clientId, clientSecret,
 *   username, password } });
 * const report = await client.gsmUsageReport('ABCD-1234-EFGH-5678-IJKL');
 */
export class SkywatchClient extends ClientOperations {
  readonly events: ClientEmitter;
  readonly transport: Transport;
  readonly tokens: TokenSource;

  constructor(options: SkywatchClientOptions) {
    const baseUrl = options.baseUrl.replace(/\/+$/, '');
    const clock = options.clock ?? systemClock;
    const events = new ClientEmitter(options.hooks);
    const transport = new Transport({
      userAgent: userAgent(options.userAgentSuffix),
      clock,
      events,
      ...(options.attemptTimeoutMs === undefined
        ? {}
        : { attemptTimeoutMs: options.attemptTimeoutMs }),
      ...(options.retry === undefined ? {} : { retry: options.retry }),
      ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
      ...(options.remainingTimeMs === undefined
        ? {}
        : { remainingTimeMs: options.remainingTimeMs }),
      ...(options.reserveMs === undefined ? {} : { reserveMs: options.reserveMs }),
    });
    let tokens: TokenSource;
    if (typeof options.auth === 'string') tokens = new StaticTokenSource(options.auth);
    else if (isTokenSource(options.auth)) tokens = options.auth;
    else
      tokens = credentialsTokenManager(
        transport,
        { baseUrl, authUrl: options.authUrl },
        options.auth,
      );
    const ctx: ClientContext = {
      baseUrl,
      transport,
      tokens,
      clock,
      format: options.format ?? 'json',
      ...(options.xml === undefined ? {} : { xml: options.xml }),
      blockedUrlLimits: options.blockedUrlLimits ?? {},
      checkScopes: options.checkScopes ?? true,
      strict: options.strict ?? false,
      ...(options.onSurprise === undefined ? {} : { onSurprise: options.onSurprise }),
    };
    super(ctx);
    this.events = events;
    this.transport = transport;
    this.tokens = tokens;
  }

  /** Scopes granted to the current token, when the token source knows them. */
  async grantedScopes(): Promise<string[]> {
    return [...((await this.tokens.getToken()).scopes ?? [])];
  }

  /** Requested scopes the service did not grant (TokenManager only; else empty). */
  async missingScopes(): Promise<string[]> {
    if (!(this.tokens instanceof TokenManager)) return [];
    await this.tokens.getToken();
    return this.tokens.missingScopes();
  }
}
