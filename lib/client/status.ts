import { baseUrlScope, SCOPES } from '../auth/scopes.js';
import { SchemaError } from '../errors/errors.js';
import { entryTextsOf, readArrayMember } from '../paging/array-member-texts.js';
import { type Page, Paginator, type PagingOptions } from '../paging/paginator.js';
import type { AgentStatus, AgentStatusGroup } from '../schemas/agent-status.js';
import type { DNSPAgentStatus } from '../schemas/dnsp-status.js';
import { AgentStatusPage, AsSentStatusPage, DNSPStatusPage } from '../schemas/paged.js';
import { type DateInput, validateModifiedSince } from '../validation/dates.js';
import {
  validateBatchSize,
  validateKeycode,
  validateMachineId,
  validateReturnedInfo,
} from '../validation/identifiers.js';
import type { CallOptions, ClientContext } from './context.js';
import { executeWithText } from './execute.js';
import { operationPath } from './path.js';

/** Options of 4.2 / 4.4 (and the base of 4.1 / 4.3). */
export interface DnspStatusOptions extends PagingOptions, CallOptions {
  /** Only this endpoint; otherwise every endpoint. */
  machineId?: string;
  /** Only entries modified (4.4) or with traffic (4.2) at or after this instant. */
  modifiedSince?: DateInput;
  /** Entries per page, 1–1000. @default 50 (the service's default; not sent) */
  batchSize?: number;
}

/** Options of 4.1 / 4.3. */
export interface AgentStatusOptions extends DnspStatusOptions {
  /** Groups to return. @default every group */
  returnedInfo?: readonly AgentStatusGroup[];
}

type Kind = 'site' | 'gsm';

/** Which of 4.1–4.4: a site's or a GSM's endpoints, their agent or their DNSP status. */
export interface StatusOf {
  kind: Kind;
  status: 'agent' | 'dnsp';
  keyCode: string;
}

function query(options: AgentStatusOptions) {
  return {
    ...(options.machineId === undefined ? {} : { machineId: validateMachineId(options.machineId) }),
    ...(options.returnedInfo === undefined
      ? {}
      : { returnedInfo: validateReturnedInfo(options.returnedInfo) }),
    ...(options.modifiedSince === undefined
      ? {}
      : { modifiedSince: validateModifiedSince(options.modifiedSince) }),
    ...(options.batchSize === undefined ? {} : { batchSize: validateBatchSize(options.batchSize) }),
  };
}

/**
 * A status page's body as the as-sent walk reads it: the envelope parsed and `QueryResults` as
 * each entry's text, the whole text checked against the JSON grammar without building the
 * entries. A body the scanner does not follow is parsed and its entries serialised again
 * (slower, never wrong); one that is not JSON throws, as `JSON.parse` does.
 */
function decodeAsSent(text: string): unknown {
  const read = readArrayMember(text, 'QueryResults');
  if (read) return { ...read.others, QueryResults: read.texts };
  const value = JSON.parse(text) as { QueryResults?: unknown };
  const entries = value?.QueryResults;
  if (!Array.isArray(entries)) return value;
  return { ...value, QueryResults: entries.map((entry) => JSON.stringify(entry)) };
}

interface PageRead {
  schema: typeof AgentStatusPage | typeof DNSPStatusPage | typeof AsSentStatusPage;
  model: string;
  /** Entries as the service sent them: `QueryResults` holds their texts (`decodeAsSent`). */
  asSent: boolean;
}

function paginate<E>(
  ctx: ClientContext,
  path: string,
  scope: string,
  q: Record<string, string | number>,
  read: PageRead,
  options: PagingOptions & CallOptions,
): Paginator<E> {
  const { schema, model, asSent } = read;
  return new Paginator<E>(async (continuation) => {
    // Follow the token with the same query rather than ContinuationURI: the URI's host is the
    // service's to choose, the token is all the paging state there is.
    const { value: env, text } = await executeWithText(ctx, {
      method: 'GET',
      path,
      query: { ...q, continuation },
      scope,
      schema,
      model,
      ...(asSent ? { decode: decodeAsSent } : {}),
      ...(options.deadline === undefined ? {} : { call: { deadline: options.deadline } }),
    });
    const { QueryResults, ...raw } = env;
    // The envelope is what the walk stands on: without its entries or with a token it cannot
    // follow, the page is lost, not read around (an entry's surprise never gets this far).
    if (!Array.isArray(QueryResults) || (env.ContinuationToken ?? null) !== env.ContinuationToken) {
      throw new SchemaError(
        `Response ${model} has no QueryResults array or no usable ContinuationToken`,
        Array.isArray(QueryResults) ? 'ContinuationToken' : 'QueryResults',
      );
    }
    // Worked out on first use only: most walks ask for one or the other.
    let texts: readonly string[] | undefined = asSent ? (QueryResults as string[]) : undefined;
    let entries: E[] | undefined = asSent ? undefined : (QueryResults as E[]);
    return {
      get entries() {
        entries ??= (texts ?? []).map((entry) => JSON.parse(entry) as E);
        return entries;
      },
      continuationToken: env.ContinuationToken ?? null,
      raw: {
        ...raw,
        Count: raw.Count ?? QueryResults.length,
        ContinuationURI: raw.ContinuationURI ?? null,
      },
      entryTexts: () => {
        texts ??= entryTextsOf(text, 'QueryResults', QueryResults);
        return texts;
      },
    } as Page<E>;
  }, options);
}

/**
 * 4.1 / 4.3: agent status of a site's or a GSM's endpoints, as a lazy paginator.
 * Inputs are validated here, before any request.
 *
 * @example
 * for await (const e of agentStatus(ctx, 'gsm', key, { returnedInfo: ['BasicInfo'] })) …
 */
export function agentStatus(
  ctx: ClientContext,
  kind: Kind,
  keyCode: string,
  options: AgentStatusOptions = {},
): Paginator<AgentStatus> {
  const key = validateKeycode(keyCode);
  const scope = kind === 'site' ? baseUrlScope(ctx.baseUrl) : SCOPES.gsm;
  const path = operationPath`/api/status/${kind}/${key}`;
  return paginate(
    ctx,
    path,
    scope,
    query(options),
    { schema: AgentStatusPage, model: 'AgentStatus page', asSent: false },
    options,
  );
}

/**
 * 4.2 / 4.4: DNSP status of a site's or a GSM's endpoints, as a lazy paginator.
 *
 * @example
 * const page = await dnspStatus(ctx, 'site', key, { batchSize: 100 }).firstPage();
 */
export function dnspStatus(
  ctx: ClientContext,
  kind: Kind,
  keyCode: string,
  options: DnspStatusOptions = {},
): Paginator<DNSPAgentStatus> {
  const key = validateKeycode(keyCode);
  const scope = kind === 'site' ? baseUrlScope(ctx.baseUrl) : SCOPES.gsm;
  const path = operationPath`/api/status/${kind}/dnsp/${key}`;
  const { returnedInfo: _ignored, ...q } = query(options);
  return paginate(
    ctx,
    path,
    scope,
    q,
    { schema: DNSPStatusPage, model: 'DNSPAgentStatus page', asSent: false },
    options,
  );
}

/**
 * 4.1–4.4 with each entry left as the service sent it: the body is checked against the JSON
 * grammar and its envelope read and checked as always, but the entries are not built, typed
 * or validated, and no surprise in them is counted. `entryTexts()` answers each entry's own
 * text; `entries` parses them on first use. For callers that keep entries whole without
 * reading a field (the daily archive): building and validating a page's entries costs more
 * than the rest of archiving it (docs/performance.md).
 *
 * @example
 * const page = await statusAsSent(ctx, { kind: 'site', status: 'dnsp', keyCode }).firstPage();
 * await writer.addPage(page.entryTexts(), page.continuationToken);
 */
export function statusAsSent(
  ctx: ClientContext,
  of: StatusOf,
  options: AgentStatusOptions = {},
): Paginator<unknown> {
  const key = validateKeycode(of.keyCode);
  const scope = of.kind === 'site' ? baseUrlScope(ctx.baseUrl) : SCOPES.gsm;
  const dnsp = of.status === 'dnsp';
  const path = dnsp
    ? operationPath`/api/status/${of.kind}/dnsp/${key}`
    : operationPath`/api/status/${of.kind}/${key}`;
  const q = query(options);
  const { returnedInfo: _groups, ...dnspQuery } = q;
  const model = dnsp ? 'DNSPAgentStatus page' : 'AgentStatus page';
  const read = { schema: AsSentStatusPage, model, asSent: true };
  return paginate(ctx, path, scope, dnsp ? dnspQuery : q, read, options);
}
