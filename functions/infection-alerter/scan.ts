import type { AlertPublisher, StateStore } from '../../lib/aws/index.js';
import {
  type AgentStatus,
  type AgentStatusGroup,
  instantMs,
  type SkywatchClient,
} from '../../lib/index.js';
import { type Lease, takeOverExpired } from './claims.js';
import { type Delivered, deliver } from './deliver.js';
import { Cursor, cursorKey, walkKey } from './records.js';
import { type WalkProgress, walkChanges } from './walk.js';
import { UNBOUNDED, type WalkBudget } from './walk-budget.js';
import {
  freshWalk,
  type StoredWalk,
  saveWalk,
  type WalkReport,
  WalkState,
  walkMoved,
  walkReport,
} from './walk-state.js';

export interface ScanSettings {
  summaryThreshold: number;
  alertOnClean: boolean;
  /** Re-read this much before the newest change seen, so nothing changed mid-walk is missed. */
  overlapMs: number;
  /** Entries per status page (4.3 batchSize). */
  pageSize: number;
  /** This run's identity in the claims it makes. */
  owner: string;
  /** How long a claim stays this run's; must outlast the invocation (see below). */
  leaseMs: number;
  now?: () => number;
  /** Status groups and a reader for the health pass, which sees the same entries. */
  extraGroups?: AgentStatusGroup[];
  onEntry?: (entry: AgentStatus) => Promise<void>;
  /** When to stop at a page boundary and leave the rest of the walk to the next invocation. */
  budget?: WalkBudget;
}

export interface ScanOutcome {
  gsm: string;
  examined: number;
  /** Expired claims of earlier runs this run took over. */
  recovered: number;
  infected: number;
  cleaned: number;
  alerts: number;
  /** Transitions left for a later run because another run's claim was for the opposite one. */
  unsettled: number;
  modifiedSince: string | null;
  walk: WalkReport;
}

/**
 * One run for one GSM: take over expired claims, walk the endpoints changed since the cursor
 * claiming each transition, send what the claims owe, then move the cursor.
 *
 * Why no infection is lost and none is alerted twice. Each transition of an endpoint becomes a
 * claim object (`claims/<machine>.json`, created If-None-Match) that holds everything its alert
 * needs and a lease; the endpoint record is written only by a claim's holder, after the alert
 * went out, and the claim is deleted only after that. The lease (INFECTION_CLAIM_LEASE_SECONDS,
 * never less than the invocation's remaining time plus a margin) outlasts the invocation, and
 * Lambda ends an invocation at its timeout, so a claim past its lease has a dead owner. If the
 * process dies:
 * - before its claim is created: nothing is written and the cursor has not moved, so the next
 *   run reads the endpoint again;
 * - after the claim, before or during publishing: the claim stays; the first run after the
 *   lease takes it over (If-Match on the claim, so one taker) and sends it. The cursor may have
 *   moved on, but the claim no longer needs the endpoint to be read again;
 * - after publishing, before the record is written: the taker sends it again. This is the one
 *   duplicate left (SNS and S3 share no transaction): alerts are at-least-once;
 * - after the record, before the claim is deleted: the taker finds the record already showing
 *   the change and deletes the claim without sending;
 * - after the claim is deleted, before the cursor moves: the next run reads the endpoint again
 *   and finds the record up to date.
 * A run that fails without dying sends what it had claimed before rethrowing, and gives up
 * (releases) the claims whose alert SNS refused, so the next run sends them without waiting.
 * Overlapping runs: one claim per endpoint, so one of them alerts; the others count the
 * endpoint as handed over when the claim is for the change they saw. When it is for the
 * opposite change (the endpoint turned again meanwhile) the run keeps the cursor where it was,
 * so a later run sees that entry again. The cursor only moves after a walk that completed and
 * left nothing unsettled, i.e. when every change it passes is in a record or in a claim.
 *
 * A walk longer than one invocation (a big console's first pass) stops at a page boundary when
 * the time left drops to the reserve (WALK_RESERVE_SECONDS), sends what it claimed, and saves
 * where it stands (`walk.json`: the next page's continuation, the `since` it began from, the
 * newest change seen, when it began, its counters). The next run goes on from there with the
 * same `since`, and the cursor moves only when the walk reaches the last page, stepped back by
 * the whole walk's time. Every page before the saved continuation was seen whole, so each of
 * its transitions is in a record or a claim (the cases above hold in every invocation); the
 * page at the continuation is read again whole. A failed walk saves its position the same way.
 * A continuation the service refuses (expired, or the query changed) starts the walk again at
 * its `since`, and a lost or outraced walk state starts again at the cursor, which has not
 * moved: either way entries are only read again, and found in records or claims.
 */
export async function scanGsm(
  deps: { client: SkywatchClient; state: StateStore; alerts: AlertPublisher },
  gsm: string,
  settings: ScanSettings,
): Promise<ScanOutcome> {
  const now = settings.now ?? Date.now;
  const lease: Lease = { owner: settings.owner, leaseMs: settings.leaseMs, now };
  const cursor = await deps.state.get(cursorKey(gsm), Cursor);
  const saved: StoredWalk | undefined = await deps.state.get(walkKey(gsm), WalkState);
  const start = saved?.value ?? freshWalk('changes', cursor?.value.modifiedSince ?? null, now());
  const recovered = await takeOverExpired(deps.state, gsm, lease);

  const walk: WalkProgress = { ...start, held: [] };
  let completed = false;
  let walkError: unknown;
  try {
    completed = await walkChanges(
      deps,
      gsm,
      start.since ?? undefined,
      lease,
      settings,
      walk,
      settings.budget ?? UNBOUNDED,
    );
  } catch (error) {
    walkError = error;
  }
  let delivered: Delivered;
  try {
    delivered = await deliver(deps, gsm, [...recovered, ...walk.held], { ...settings, now });
  } catch (error) {
    if (walkError === undefined) throw error;
    throw new AggregateError([walkError, error], 'the walk failed and so did sending its alerts');
  }
  const { held: _held, ...position } = walk;
  const reached: WalkState = { ...start, ...position, ticks: start.ticks + 1 };
  // Pages fully seen before a failure or the deadline need not be read again.
  if (!completed && walkMoved(start, reached))
    await saveWalk(deps.state, walkKey(gsm), reached, saved, walkError);
  if (walkError !== undefined) throw walkError;
  const modifiedSince = completed
    ? await moveCursor(deps.state, gsm, cursor, reached, settings.overlapMs, now())
    : (cursor?.value.modifiedSince ?? null);
  if (completed && saved) await deps.state.delete(walkKey(gsm));
  return {
    gsm,
    examined: walk.examined - start.examined,
    recovered: recovered.length,
    ...delivered,
    unsettled: walk.unsettled,
    modifiedSince,
    walk: walkReport(start, reached, saved !== undefined, completed),
  };
}

/**
 * After a complete walk: the cursor steps back from the newest change seen by the overlap and
 * by the whole walk's time (every invocation it took and the gaps between them), since a change
 * made meanwhile may sit behind the walk's position. It never moves back, and stays put when a
 * transition was left unsettled. Answers the cursor as it now stands.
 */
async function moveCursor(
  state: StateStore,
  gsm: string,
  cursor: { value: { modifiedSince: string }; etag: string } | undefined,
  walk: WalkState,
  overlapMs: number,
  now: number,
): Promise<string | null> {
  const current = cursor?.value.modifiedSince ?? null;
  const walkMs = now - Date.parse(walk.startedAt);
  const next = walk.newest
    ? new Date(instantMs(walk.newest) - overlapMs - walkMs).toISOString()
    : current;
  if (walk.unsettled > 0 || !next || (current && next <= current)) return current;
  try {
    await state.put(
      cursorKey(gsm),
      { modifiedSince: next },
      cursor ? { ifMatch: cursor.etag } : { ifNoneMatch: true },
    );
  } catch (error) {
    // An overlapping run moved the cursor first; its position is as good as ours.
    if ((error as Error).name !== 'ConflictError') throw error;
  }
  return next;
}
