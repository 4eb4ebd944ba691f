import { hasScope } from '../auth/scopes.js';
import type { AccessToken } from '../auth/token-source.js';
import { AuthError, SchemaError, ValidationError } from '../errors/errors.js';
import { redactUrl } from '../errors/redact.js';
import { waitWithin } from '../http/deadline.js';
import { BROKEN, type HttpResponse } from '../http/transport.js';
import type { Tolerant } from '../schemas/tolerant.js';
import type { XmlModel } from '../xml/codec.js';
import type * as z from '../zod.js';
import type { CallOptions, ClientContext } from './context.js';
import { readAnswer } from './read.js';
import { errorFromResponse } from './response-errors.js';

export interface Operation<S extends z.core.$ZodType> {
  method: 'GET' | 'POST';
  /** Path under baseUrl, segments already encoded. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  scope: string;
  schema: S;
  model: string;
  /** XML models when the XML representation is chosen. */
  xml?: { response: XmlModel<S>; request?: XmlModel };
  body?: unknown;
  call?: CallOptions;
  /** Reads a JSON body in place of `JSON.parse`, throwing as it does on text that is not JSON. */
  decode?: (text: string) => unknown;
}

/**
 * Joins baseUrl, path and query; undefined query values are left out.
 *
 * @example
 * buildUrl('http://h/service', '/api/x', { batchSize: 50 }); // 'http://h/service/api/x?batchSize=50'
 */
export function buildUrl(
  baseUrl: string,
  path: string,
  query: Operation<z.core.$ZodType>['query'] = {},
): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) search.set(k, String(v));
  const qs = search.toString();
  return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
}

function checkScope(ctx: ClientContext, token: AccessToken, scope: string, url: string): void {
  if (!ctx.checkScopes || !token.scopes) return;
  if (!hasScope(token.scopes, scope)) {
    throw new AuthError(
      `${redactUrl(url)}: the token lacks scope ${scope}; ask for it when obtaining the token`,
      'insufficient_scope',
      { scope },
    );
  }
}

/**
 * Runs one operation: token and scope check, request with retries, one token refresh and
 * replay after a 401, error mapping, and schema validation of the answer.
 *
 * @example
 * const report = await execute(ctx, { method: 'GET', path, scope, schema, model: 'UsageReportGSM' });
 */
export async function execute<S extends z.core.$ZodType>(
  ctx: ClientContext,
  op: Operation<S>,
): Promise<Tolerant<z.output<S>>> {
  return (await executeWithText(ctx, op)).value;
}

/**
 * `execute`, also answering the body's text as received, for callers that keep the service's
 * own bytes (the status pages' `entryTexts`).
 *
 * @example
 * const { value, text } = await executeWithText(ctx, op);
 */
export async function executeWithText<S extends z.core.$ZodType>(
  ctx: ClientContext,
  op: Operation<S>,
): Promise<{ value: Tolerant<z.output<S>>; text: string }> {
  const url = buildUrl(ctx.baseUrl, op.path, op.query);
  const xml = op.xml ? ctx.xml : undefined;
  if (op.xml && !xml) {
    throw new ValidationError(
      'format',
      "'xml' needs the XML codec: create the client with `xml: xmlCodec` (from lib/xml)",
    );
  }
  const headers: Record<string, string> = {
    accept: op.xml ? 'application/xml' : 'application/json',
  };
  let body: string | undefined;
  if (op.body !== undefined) {
    if (op.xml?.request && xml) {
      headers['content-type'] = 'application/xml; charset=utf-8';
      body = xml.build(op.xml.request, op.body);
    } else {
      headers['content-type'] = 'application/json; charset=utf-8';
      body = JSON.stringify(op.body);
    }
  }
  // One deadline for the whole call, token included: the earlier of the call's and the client's.
  const deadline = ctx.transport.deadlineFor(
    op.call?.deadline === undefined ? undefined : { deadline: op.call.deadline },
  );
  const bounded = Number.isFinite(deadline);
  // Bounded here as well, so a token source that ignores maxWaitMs cannot stretch the call.
  const getToken = () => {
    if (!bounded) return ctx.tokens.getToken();
    const maxWaitMs = deadline - ctx.transport.clock.now();
    return waitWithin(ctx.tokens.getToken({ maxWaitMs }), maxWaitMs, 'token');
  };
  const send = async (token: AccessToken): Promise<HttpResponse> => {
    checkScope(ctx, token, op.scope, url);
    return ctx.transport.send({
      method: op.method,
      url,
      headers: { ...headers, authorization: `Bearer ${token.value}` },
      ...(body === undefined ? {} : { body }),
      decode: xml ? xml.validate : (op.decode ?? ((text) => JSON.parse(text))),
      ...(bounded ? { deadline: { deadline } } : {}),
    });
  };
  let token = await getToken();
  let res = await send(token);
  if (res.status === 401) {
    // The token was revoked or expired early: a 401 means the request was not processed, so one
    // replay with a fresh token is safe even for the POST.
    ctx.tokens.invalidate(token.value);
    token = await getToken();
    res = await send(token);
  }
  if (res.status < 200 || res.status >= 300) throw errorFromResponse(res, op.method, url);
  if (res.decoded === BROKEN) {
    throw new SchemaError(
      `${op.method} ${redactUrl(url)}: response ${op.model} is cut short or not ${op.xml ? 'XML' : 'JSON'}`,
      '(root)',
    );
  }
  if (xml && op.xml) {
    const { root, schema } = op.xml.response;
    const { value } = readAnswer(ctx, schema, xml.decode(op.xml.response, res.text), root);
    return { value, text: res.text };
  }
  const { value } = readAnswer(ctx, op.schema, res.decoded, op.model);
  return { value, text: res.text };
}
