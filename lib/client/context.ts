import type { TokenSource } from '../auth/token-source.js';
import type { Clock } from '../http/clock.js';
import type { Transport } from '../http/transport.js';
import type { WindowLimits } from '../validation/dates.js';
import type { XmlCodec } from '../xml/codec.js';
import type { SurpriseEvent } from './read.js';

/** Representation of 4.8, 4.9 and 4.10 (the others are JSON only). */
export type Format = 'json' | 'xml';

/** What the operation functions share. */
export interface ClientContext {
  baseUrl: string;
  transport: Transport;
  tokens: TokenSource;
  clock: Clock;
  format: Format;
  /** Needed for the XML representation; see SkywatchClientOptions.xml. */
  xml?: XmlCodec;
  blockedUrlLimits: WindowLimits;
  /** Check a token's granted scopes before each request. */
  checkScopes: boolean;
  /** Fail on the first field that breaks the contract instead of reading around it. */
  strict: boolean;
  /** Called once per surprising field of an answer (see lib/schemas/tolerant.ts). */
  onSurprise?: (surprise: SurpriseEvent) => void;
}

/** Options every operation takes. */
export interface CallOptions {
  /**
   * Deadline of this call (Date or epoch ms on the client's clock). The earlier of it and the
   * client's deadline (`deadline`, or `remainingTimeMs` less `reserveMs`) applies, to the token
   * request too: a call can shorten its time, never outlive the invocation.
   */
  deadline?: Date | number;
}
