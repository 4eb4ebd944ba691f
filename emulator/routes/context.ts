import type { IncomingHttpHeaders } from 'node:http';
import type { Query } from '../http/params.js';
import type { Reply } from '../http/respond.js';
import type { EmulatorState } from '../state.js';
import type { OperationName } from '../types.js';

export interface RouteContext {
  state: EmulatorState;
  /** Decoded path parameters, in the order of the pattern's groups. */
  params: string[];
  query: Query;
  url: URL;
  /** The raw query string of the request, for building ContinuationURI. */
  search: URLSearchParams;
  /** Whether the caller asked for XML (only on operations that offer it). */
  xml: boolean;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  /** Names of the pattern's groups, for messages about them. */
  names: string[];
  operation: OperationName;
  /** The scope the operation requires, given the base URL. */
  scope: (baseUrl: string) => string;
  /** Whether an XML representation is offered (4.8, 4.9, 4.10). */
  xml: boolean;
  /** The query parameters the operation takes; any other is refused (http/params.ts). */
  query: readonly string[];
  handle: (ctx: RouteContext) => Reply;
}
