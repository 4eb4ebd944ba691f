import type { StateStore, Stored } from '../../lib/aws/index.js';
import {
  type AgentStatus,
  type AgentStatusGroup,
  instantMs,
  type PagingOptions,
  type SkywatchClient,
  UtcInstant,
} from '../../lib/index.js';
import * as z from '../../lib/zod.js';
import { walkPages } from './page-walk.js';
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

/** Where the walk of changes stands between runs (under the bucket's `state/`). */
const Cursor = z.object({ modifiedSince: z.string() });
export const cursorKey = (gsm: string) => `infection-alerter/${gsm}/cursor.json`;
/** A walk of changes paused by the invocation's deadline (walk-state.ts). */
export const walkKey = (gsm: string) => `infection-alerter/${gsm}/walk.json`;

/** What the walk needs of an entry: when it changed, for the cursor. */
const Changed = z.object({ LastChanged: UtcInstant });

export interface ChangesSettings {
  /** Re-read this much before the newest change seen, so nothing changed mid-walk is missed. */
  overlapMs: number;
  /** Entries per status page (4.3 batchSize). */
  pageSize: number;
  /** The status groups the reader of the entries needs. */
  groups: AgentStatusGroup[];
  /** Sees every entry; a page counts as read once it returned for each of the page's entries. */
  observe: (entry: AgentStatus) => Promise<void>;
  /** When to stop at a page boundary and leave the rest of the walk to the next invocation. */
  budget?: WalkBudget;
  now?: () => number;
}

export interface ChangesOutcome {
  gsm: string;
  /** Entries this invocation read. */
  examined: number;
  /** The cursor as this run left it. */
  modifiedSince: string | null;
  walk: WalkReport;
}

/**
 * One run's walk of the endpoints of a GSM changed since the cursor (4.3 with modifiedSince),
 * each entry handed to `observe` (the health pass), then the cursor moved on.
 *
 * Why no change is lost. The walk only has to read every changed entry at least once: alerts
 * are made exactly once per transition by the health pass's outbox (health/lifecycle.ts),
 * where a transition is an entry created only if absent and drained against the subject's
 * record, so an entry read again (by this run, a later one or an overlapping one) finds its
 * transition already in the outbox or the record. `observe` writes an entry's transitions
 * before its page counts as read, and the cursor moves only after a walk that reached its last
 * page. If the run fails or dies:
 * - before a page is read whole: the page is read again, by the next invocation of this walk
 *   (its saved position) or by the next walk (the cursor has not moved);
 * - after a transition reached the outbox, before it was sent: the next run's drain sends it,
 *   whether or not its walk reads that entry again;
 * - after the last page, before the cursor moved: the next walk reads those entries again.
 * Overlapping runs each walk the changes they find and move the cursor only forward (If-Match).
 *
 * The cursor is drawn from the newest LastChanged seen, stepped back by the overlap
 * (CURSOR_OVERLAP_SECONDS) and by the whole walk's time, since a change made meanwhile may sit
 * behind the walk's position.
 *
 * A walk longer than one invocation (a big console's first pass) stops at a page boundary when
 * the time left drops to the reserve (WALK_RESERVE_SECONDS) and saves where it stands
 * (`walk.json`: the next page's continuation, the `since` it began from, the newest change
 * seen, when it began, its counters). The next run goes on from there with the same `since`,
 * and the cursor moves only when the walk reaches the last page. Every page before the saved
 * continuation was observed whole; the page at the continuation is read again whole. A failed
 * walk saves its position the same way. A continuation the service refuses (expired, or the
 * query changed) starts the walk again at its `since`, and a lost or outraced walk state starts
 * again at the cursor, which has not moved: either way entries are only read again.
 */
export async function walkChanges(
  deps: { client: SkywatchClient; state: StateStore },
  gsm: string,
  settings: ChangesSettings,
): Promise<ChangesOutcome> {
  const now = settings.now ?? Date.now;
  const cursor = await deps.state.get(cursorKey(gsm), Cursor);
  const saved: StoredWalk | undefined = await deps.state.get(walkKey(gsm), WalkState);
  const start = saved?.value ?? freshWalk('changes', cursor?.value.modifiedSince ?? null, now());
  const walk: WalkState = { ...start };
  const open = (paging: PagingOptions) =>
    deps.client.gsmAgentStatus(gsm, {
      returnedInfo: settings.groups,
      batchSize: settings.pageSize,
      prefetch: true,
      ...(start.since ? { modifiedSince: start.since } : {}),
      ...paging,
    });

  let completed = false;
  let walkError: unknown;
  try {
    completed = await walkPages(open, walk, settings.budget ?? UNBOUNDED, async (entries) => {
      for (const entry of entries) {
        walk.examined++;
        await settings.observe(entry);
        // Without a readable LastChanged the entry cannot move the cursor (the client counts
        // it, rule `needed`); the pass has judged it all the same.
        const changed = deps.client.needs(entry, Changed, 'AgentStatus');
        // Normalised instants (UTC, milliseconds), so text order is time order.
        if (changed && changed.LastChanged > walk.newest) walk.newest = changed.LastChanged;
      }
    });
  } catch (error) {
    walkError = error;
  }
  const reached: WalkState = { ...walk, ticks: start.ticks + 1 };
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
    examined: reached.examined - start.examined,
    modifiedSince,
    walk: walkReport(start, reached, saved !== undefined, completed),
  };
}

/**
 * After a complete walk: the cursor steps back from the newest change seen by the overlap and
 * by the whole walk's time (every invocation it took and the gaps between them). It never
 * moves back. Answers the cursor as it now stands.
 */
async function moveCursor(
  state: StateStore,
  gsm: string,
  cursor: Stored<{ modifiedSince: string }> | undefined,
  walk: WalkState,
  overlapMs: number,
  now: number,
): Promise<string | null> {
  const current = cursor?.value.modifiedSince ?? null;
  const walkMs = now - Date.parse(walk.startedAt);
  const next = walk.newest
    ? new Date(instantMs(walk.newest) - overlapMs - walkMs).toISOString()
    : current;
  if (!next || (current && next <= current)) return current;
  // Not replaced: an overlapping run moved the cursor first; its position is as good as ours.
  await state.replace(cursorKey(gsm), { modifiedSince: next }, cursor);
  return next;
}
