import type { StateStore, Stored } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';

const Count = z.number().check(z.int(), z.minimum(0));

/**
 * A walk that an invocation's deadline paused at a page boundary, for the next invocation to go
 * on with. `changes` is the walk of the endpoints changed since the cursor, kept beside the
 * cursor; `full-check` is the health pass's walk of the whole console, kept beside its marker.
 * Fields an older version wrote and this one no longer reads are ignored.
 */
export const WalkState = z.object({
  kind: z.enum(['changes', 'full-check']),
  /** Where the walk goes on; null: at the first page (paused before any page was read). */
  continuation: z.nullable(z.string()),
  /** The modifiedSince the walk was started with; null walks every endpoint. */
  since: z.nullable(z.string()),
  /** Newest LastChanged seen so far (or `since`): the cursor is drawn from it at the end. */
  newest: z.string(),
  /** When the walk's first invocation began; the cursor steps back by the whole walk's time. */
  startedAt: z.string(),
  pages: Count,
  examined: Count,
  /** Invocations the walk has taken so far, the current one not included. */
  ticks: Count,
  /** Times the service refused the saved continuation and the walk began again at `since`. */
  restarts: Count,
  /** Full check: the site of each subject the digest counts, gathered over the walk. */
  sites: z.optional(z.record(z.string(), z.string())),
});
export type WalkState = z.infer<typeof WalkState>;

/** How this invocation's part of a walk went, for the pause/resume metrics and log lines. */
export interface WalkReport {
  kind: WalkState['kind'];
  /** Went on with a walk an earlier invocation paused. */
  resumed: boolean;
  /** Stopped at a page boundary; the next invocation goes on. */
  paused: boolean;
  /** The service refused the saved continuation; the walk began again at its `since`. */
  restarted: boolean;
  /** Over the whole walk so far. */
  pages: number;
  examined: number;
  ticks: number;
}

export type StoredWalk = Stored<WalkState>;

/** A fresh walk's state, before its first page. */
export function freshWalk(kind: WalkState['kind'], since: string | null, at: number): WalkState {
  return {
    kind,
    continuation: null,
    since,
    newest: since ?? '',
    startedAt: new Date(at).toISOString(),
    pages: 0,
    examined: 0,
    ticks: 0,
    restarts: 0,
  };
}

/**
 * Saves a paused walk, conditional on the version this run resumed (or on there being none).
 * Losing the race is fine: the other run's walk is as good a position, and one that finished
 * has moved the cursor past ours. Answers whether ours was saved. When the walk failed
 * (`walkError`), a failure to save is raised together with it, so neither is lost.
 */
export async function saveWalk(
  state: StateStore,
  key: string,
  walk: WalkState,
  resumed: StoredWalk | undefined,
  walkError?: unknown,
): Promise<boolean> {
  try {
    return await state.replace(key, walk, resumed);
  } catch (error) {
    if (walkError === undefined) throw error;
    throw new AggregateError([walkError, error], 'the walk failed and so did saving its position');
  }
}

/** Whether this invocation took a walk past where it found it (a restart counts). */
export const walkMoved = (start: WalkState, reached: WalkState) =>
  reached.pages > start.pages || reached.restarts > start.restarts;

/**
 * This invocation's report on a walk that started at `start` and stands at `reached`; a saved
 * walk counts as resumed only when this invocation took it further.
 */
export function walkReport(
  start: WalkState,
  reached: WalkState,
  saved: boolean,
  completed: boolean,
): WalkReport {
  return {
    kind: start.kind,
    resumed: saved && walkMoved(start, reached),
    paused: !completed,
    restarted: reached.restarts > start.restarts,
    pages: reached.pages,
    examined: reached.examined,
    ticks: reached.ticks,
  };
}
