import { agentStatusJson, GROUPS, type GroupName } from '../data/agent-status.js';
import type { Gsm, Site } from '../data/dataset.js';
import { dnspStatusJson } from '../data/dnsp-status.js';
import { type EndpointFacts, endpointFacts, latestBaseInstant } from '../data/endpoint-facts.js';
import { parseMachineId } from '../data/ids.js';
import { ByteWriter } from '../http/byte-writer.js';
import {
  batchSizeParam,
  isMachineId,
  keycodeParam,
  parseInstant,
  type Query,
} from '../http/params.js';
import { invalidParameter, notFound } from '../http/problem.js';
import { JSON_TYPE, type Reply } from '../http/respond.js';
import type { EmulatorState } from '../state.js';
import type { RouteContext } from './context.js';
import { decodeContinuation, encodeContinuation, queryDigest } from './paging.js';

export interface StatusKind {
  gsmLevel: boolean;
  dnsp: boolean;
}

function returnedInfo(query: Query): GroupName[] {
  const raw = query.get('returnedInfo');
  if (raw === undefined) return [...GROUPS];
  const names = raw.split(',').map((n) => n.trim());
  const unknown = names.filter((n) => !(GROUPS as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) {
    throw invalidParameter(
      'returnedInfo',
      `must list group names from ${GROUPS.join(', ')} (unknown: ${JSON.stringify(unknown.join(','))})`,
    );
  }
  return GROUPS.filter((g) => names.includes(g));
}

/** Which instant modifiedSince compares with: 4.2 asks for traffic, the others for changes. */
function modifiedAt(kind: StatusKind, f: EndpointFacts): number {
  return kind.dnsp && !kind.gsmLevel ? f.lastSeen : f.lastChanged;
}

function scope(state: EmulatorState, kind: StatusKind, keyCode: string): { gsm: Gsm; site?: Site } {
  if (kind.gsmLevel) {
    const gsm = state.data.gsm(keyCode);
    if (!gsm) throw notFound(`no GSM console has the keycode ${keyCode}`);
    return { gsm };
  }
  const site = state.data.site(keyCode);
  if (!site) throw notFound(`no site has the keycode ${keyCode}`);
  return { gsm: state.data.gsms[site.gsmIndex] as Gsm, site };
}

/** Endpoint indexes to consider from `from` on: all of them, or only changed ones when that suffices. */
function candidates(
  state: EmulatorState,
  gsm: Gsm,
  site: Site | undefined,
  from: number,
  since?: number,
): Iterable<number> {
  if (since !== undefined && since > latestBaseInstant(state.data.shape.anchor)) {
    const changed = state.changes.changedIndexes(gsm.index, from);
    return site ? changed.filter((i) => state.data.siteOf(gsm, i) === site) : changed;
  }
  return site ? state.data.siteIndexes(site, from) : state.data.gsmIndexes(gsm, from);
}

/** 4.1–4.4: one batch of agent or DNSP status, keyset-paged. */
export function statusPage(ctx: RouteContext, kind: StatusKind): Reply {
  const { state, query } = ctx;
  const keyCode = keycodeParam('keyCode', ctx.params[0] ?? '');
  const { gsm, site } = scope(state, kind, keyCode);
  const batchSize = batchSizeParam(query);
  const machineId = query.get('machineId');
  if (machineId !== undefined && !isMachineId(machineId)) {
    throw invalidParameter('machineId', 'must be three non-empty segments joined by ":::"');
  }
  const sinceRaw = query.get('modifiedSince');
  const since = sinceRaw === undefined ? undefined : parseInstant('modifiedSince', sinceRaw);
  const groups = kind.dnsp ? [] : returnedInfo(query);
  const now = state.clock.now();
  const digest = queryDigest([
    ctx.url.pathname,
    keyCode,
    machineId?.toUpperCase(),
    String(since ?? ''),
    groups.join(','),
  ]);
  const continuation = query.get('continuation');
  const from =
    continuation === undefined ? 0 : decodeContinuation(state.pagingKey, continuation, digest, now);
  const { seed, anchor } = state.data.shape;

  const matches = (index: number): EndpointFacts | undefined => {
    const f = endpointFacts(
      seed,
      anchor,
      state.changes,
      gsm,
      site ?? state.data.siteOf(gsm, index),
      index,
    );
    if (kind.dnsp && !f.hasDnsp) return undefined;
    if (since !== undefined && modifiedAt(kind, f) < since) return undefined;
    return f;
  };
  const render = (f: EndpointFacts) =>
    kind.dnsp ? dnspStatusJson(f) : agentStatusJson(f, groups, anchor);

  // Entries go to bytes as they are rendered (see ByteWriter); `count` stands for the batch.
  const out = new ByteWriter(batchSize * (kind.dnsp ? 800 : 3_200) + 1_024);
  out.text('{"QueryResults":[');
  let count = 0;
  const emit = (f: EndpointFacts) => {
    out.text(count === 0 ? render(f) : `,${render(f)}`);
    count++;
  };
  let next: number | undefined;
  if (machineId !== undefined) {
    const address = parseMachineId(seed, machineId);
    const belongs =
      address !== undefined &&
      address.gsmIndex === gsm.index &&
      address.index < state.data.size(gsm) &&
      (!site || state.data.siteOf(gsm, address.index) === site);
    const f = belongs && from === 0 ? matches(address.index) : undefined;
    if (f) emit(f);
  } else {
    for (const index of candidates(state, gsm, site, from, since)) {
      const f = matches(index);
      if (!f) continue;
      // One entry past the batch tells whether another batch exists, so no empty last batch.
      if (count === batchSize) {
        next = index;
        break;
      }
      emit(f);
    }
  }

  let token = 'null';
  let uri = 'null';
  if (next !== undefined) {
    const value = encodeContinuation(state.pagingKey, digest, next, now);
    const search = new URLSearchParams(
      [...ctx.search].filter(([k]) => k.toLowerCase() !== 'continuation'),
    );
    search.append('continuation', value);
    token = JSON.stringify(value);
    uri = JSON.stringify(`${state.baseUrl}${ctx.url.pathname.slice('/service'.length)}?${search}`);
  }
  out.text(`],"ContinuationToken":${token},"ContinuationURI":${uri},"Count":${count}}`);
  return { status: 200, body: out.bytes(), contentType: JSON_TYPE };
}
