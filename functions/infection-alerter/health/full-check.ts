import type { StateStore } from '../../../lib/aws/index.js';
import type {
  AgentStatus,
  AgentStatusGroup,
  PagingOptions,
  SkywatchClient,
} from '../../../lib/index.js';
import { walkPages } from '../page-walk.js';
import type { WalkBudget } from '../walk-budget.js';
import {
  freshWalk,
  saveWalk,
  type WalkReport,
  WalkState,
  walkMoved,
  walkReport,
} from '../walk-state.js';

/** A full check the invocation's deadline paused, beside the full check's marker. */
export const fullCheckWalkKey = (gsm: string) =>
  `health/${encodeURIComponent(gsm)}/full-check-walk.json`;

/**
 * The full check's walk of every endpoint, going on from where an earlier invocation paused it.
 * Answers whether it reached the last page; only then may the caller draw what needs the whole
 * console (the digest, the marker that the check is done). Answers undefined when no check is
 * under way and `startNew` is false.
 *
 * What the walk gathers across invocations: each entry's transitions are written to the outbox
 * as it is observed, so they need nothing kept; the site kinds are evaluated in every invocation
 * for the sites it saw, and the same site seen again only finds its record up to date; the
 * sites of subjects (which the digest counts open alerts under) are saved with the walk, so the
 * digest drawn at its end knows those seen by every invocation of it.
 */
export async function walkFullCheck(
  deps: { client: SkywatchClient; state: StateStore },
  gsm: string,
  options: {
    groups: AgentStatusGroup[];
    pageSize: number;
    budget: WalkBudget;
    now: number;
    startNew: boolean;
  },
  observe: (entry: AgentStatus) => Promise<void>,
  sites: Map<string, string>,
): Promise<{ completed: boolean; report: WalkReport } | undefined> {
  const key = fullCheckWalkKey(gsm);
  const saved = await deps.state.get(key, WalkState);
  if (!saved && !options.startNew) return undefined;
  const start = saved?.value ?? freshWalk('full-check', null, options.now);
  for (const [subject, site] of Object.entries(start.sites ?? {}))
    if (!sites.has(subject)) sites.set(subject, site);
  const position = { ...start };
  const open = (paging: PagingOptions) =>
    deps.client.gsmAgentStatus(gsm, {
      returnedInfo: options.groups,
      batchSize: options.pageSize,
      prefetch: true,
      ...paging,
    });
  let completed = false;
  let walkError: unknown;
  try {
    completed = await walkPages(open, position, options.budget, async (entries) => {
      for (const entry of entries) await observe(entry);
      position.examined += entries.length;
    });
  } catch (error) {
    walkError = error;
  }
  const reached: WalkState = {
    ...position,
    ticks: start.ticks + 1,
    sites: Object.fromEntries(sites),
  };
  if (!completed && walkMoved(start, reached))
    await saveWalk(deps.state, key, reached, saved, walkError);
  if (walkError !== undefined) throw walkError;
  if (completed && saved) await deps.state.delete(key);
  return { completed, report: walkReport(start, reached, saved !== undefined, completed) };
}
