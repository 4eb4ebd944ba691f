import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { requireScope } from './auth/bearer.js';
import { OAuthError } from './auth/oauth-error.js';
import { oauthErrorReply, tokenEndpoint } from './auth/token-endpoint.js';
import type { Control } from './control.js';
import { HtmlFault, htmlReply, problemReply } from './http/error-replies.js';
import type { FaultDecision } from './http/faults.js';
import { wantsXml } from './http/negotiate.js';
import { Query } from './http/params.js';
import { invalidParameter, Problem } from './http/problem.js';
import { jsonReply, type Reply, send } from './http/respond.js';
import { unwrapToken } from './real/continuation.js';
import { realReply } from './real/reply.js';
import { admin } from './routes/admin.js';
import { healthReply, isHealthPath } from './routes/health.js';
import { ROUTES } from './routes/table.js';
import type { EmulatorState } from './state.js';
import type { OperationName } from './types.js';

const MAX_BODY = 64 * 1024;
const TOKEN_PATH = '/identity/auth/token';
let traceCounter = 0;

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Keep draining so the client sees the 413 instead of a broken pipe.
    if (size <= MAX_BODY) chunks.push(chunk);
  }
  if (size > MAX_BODY) throw new BodyTooLarge();
  return Buffer.concat(chunks).toString('utf8');
}

function faultReply(
  fault: Extract<FaultDecision, { kind: 'status' }>,
  style: 'problem' | 'envelope',
): Problem | HtmlFault {
  const codes: Record<number, string> = {
    429: 'rate_limited',
    500: 'internal_error',
    502: 'bad_gateway',
    503: 'service_unavailable',
    504: 'gateway_timeout',
  };
  const headers: Record<string, string> = {};
  // The real service's 429s carry no Retry-After; in its style only a rule that names one does.
  const retryAfter = fault.retryAfterSeconds ?? (style === 'problem' ? 1 : undefined);
  if ((fault.status === 429 || fault.status === 503) && retryAfter !== undefined)
    headers['retry-after'] = String(retryAfter);
  if (fault.html) return new HtmlFault(fault.status, headers);
  return new Problem(
    fault.status,
    codes[fault.status] ?? 'internal_error',
    'injected fault',
    undefined,
    headers,
  );
}

/** A path parameter as text; a broken percent-escape is the caller's mistake, not a 500. */
function decodeSegment(name: string, segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalidParameter(name, `has a malformed percent-escape (got ${JSON.stringify(segment)})`);
  }
}

/** Finds the operation of a request, or answers why there is none. */
function route(
  method: string,
  path: string,
): { op: OperationName; index: number } | Problem | OAuthError {
  if (isHealthPath(path)) {
    return method === 'GET'
      ? { op: 'health', index: -1 }
      : new Problem(405, 'method_not_allowed', 'use GET', undefined, { allow: 'GET' });
  }
  if (path === TOKEN_PATH) {
    return method === 'POST'
      ? { op: 'token', index: -1 }
      : new OAuthError(405, 'invalid_request', 'the token endpoint takes POST only', {
          allow: 'POST',
        });
  }
  const index = ROUTES.findIndex((r) => r.pattern.test(path));
  const found = ROUTES[index];
  if (!found) return new Problem(404, 'not_found', `no operation at ${path}`);
  if (found.method !== method) {
    return new Problem(405, 'method_not_allowed', `use ${found.method}`, undefined, {
      allow: found.method,
    });
  }
  return { op: found.operation, index };
}

async function serve(
  state: EmulatorState,
  req: IncomingMessage,
  url: URL,
): Promise<{ reply: Reply; fault?: FaultDecision }> {
  const method = req.method ?? 'GET';
  const found = route(method, url.pathname);
  if (found instanceof Problem || found instanceof OAuthError) throw found;
  state.stats.requests++;
  state.stats.byOperation[found.op] = (state.stats.byOperation[found.op] ?? 0) + 1;

  const { latencyMs, fault } = state.faults.decide(found.op, url.pathname);
  if (latencyMs > 0) await sleep(latencyMs);
  if (fault?.kind === 'status') throw faultReply(fault, state.options.errorStyle);
  if (fault?.kind === 'revoke') state.tokens.revokeAccessTokens();

  if (state.options.strictUserAgent && !req.headers['user-agent']) {
    const why = 'send a User-Agent header that names your client and its version';
    // The token endpoint answers its own refusals in the RFC 6749 shape, this one included.
    if (found.op === 'token') throw new OAuthError(400, 'invalid_request', why);
    throw new Problem(400, 'user_agent_required', why);
  }
  const body = method === 'POST' ? await readBody(req) : '';
  if (found.op === 'token') return { reply: tokenEndpoint(state, req.headers, body), fault };
  if (found.op === 'health') return { reply: healthReply(url.pathname), fault };

  const r = ROUTES[found.index];
  if (!r) throw new Problem(404, 'not_found', 'no such operation');
  requireScope(state, req.headers, r.scope(state.baseUrl));
  const xml = wantsXml(req.headers.accept, r.xml);
  if (method === 'POST') {
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const accepted = ['application/json', ...(r.xml ? ['application/xml', 'text/xml'] : [])];
    if (!accepted.includes(type)) {
      throw new Problem(415, 'unsupported_media_type', `send the body as ${accepted.join(' or ')}`);
    }
  }
  const real = state.options.rendering === 'real';
  if (real) {
    // The real profile's tokens wrap the contract's: unwrap before the route reads it.
    const continuation = url.searchParams.get('continuation');
    if (continuation !== null) url.searchParams.set('continuation', unwrapToken(continuation));
  }
  const params = (r.pattern.exec(url.pathname) ?? [])
    .slice(1)
    .map((segment, i) => decodeSegment(r.names[i] ?? 'path', segment));
  const ctx = {
    state,
    params,
    query: new Query(url.searchParams, r.query),
    url,
    search: url.searchParams,
    xml,
    headers: req.headers,
    body,
  };
  const reply = r.handle(ctx);
  const rendering = { seed: state.options.seed, surpriseShare: state.options.surpriseShare };
  return { reply: real ? realReply(reply, rendering) : reply, fault };
}

/** The request listener: admin API, token endpoint and the service operations. */
export function createListener(state: EmulatorState, control: Control, origin: string) {
  const adminUrl = `${origin}/__admin`;
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', origin);
    const traceId = `00-${(++traceCounter).toString(16).padStart(32, '0')}-00`;
    const handle = async (): Promise<void> => {
      if (url.pathname.startsWith('/__admin/')) {
        try {
          send(
            res,
            admin(control, adminUrl, req.method ?? 'GET', url, await readBody(req)),
            undefined,
            state.clock.now(),
          );
        } catch (error) {
          send(
            res,
            jsonReply({ error: (error as Error).message }, 400),
            undefined,
            state.clock.now(),
          );
        }
        return;
      }
      try {
        const { reply, fault } = await serve(state, req, url);
        send(res, reply, fault, state.clock.now());
      } catch (error) {
        const tokenRefusal =
          error instanceof OAuthError
            ? error
            : error instanceof BodyTooLarge && url.pathname === TOKEN_PATH
              ? new OAuthError(413, 'invalid_request', `the body is limited to ${MAX_BODY} bytes`)
              : undefined;
        if (tokenRefusal) {
          send(res, oauthErrorReply(tokenRefusal), undefined, state.clock.now());
          return;
        }
        if (error instanceof HtmlFault) {
          send(res, htmlReply(error), undefined, state.clock.now());
          return;
        }
        const problem =
          error instanceof Problem
            ? error
            : error instanceof BodyTooLarge
              ? new Problem(
                  413,
                  'payload_too_large',
                  `request bodies are limited to ${MAX_BODY} bytes`,
                )
              : new Problem(500, 'internal_error', 'an unexpected error occurred');
        if (!(error instanceof Problem) && !(error instanceof BodyTooLarge))
          console.error('emulator: unexpected error', error);
        send(
          res,
          problemReply(problem, state.options.errorStyle, traceId),
          undefined,
          state.clock.now(),
        );
      }
    };
    void handle();
  };
}
