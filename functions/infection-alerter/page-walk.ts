import type { Paginator, PagingOptions } from '../../lib/index.js';
import type { WalkBudget } from './walk-budget.js';

/** Where a walk stands between pages; moved on as each page is done, so a failed walk keeps it. */
export interface PagePosition {
  /** The next page's continuation token; null: the first page. */
  continuation: string | null;
  pages: number;
  restarts: number;
}

/**
 * Walks pages from `position` until the last page (answers true) or until the budget is spent
 * at a page boundary (answers false; `position.continuation` says where to go on). A page
 * counts as done only once `onPage` has returned, so a walk stopped or failed anywhere goes on
 * at the first page not fully seen: entries are seen at least once and never skipped. A saved
 * continuation the service refuses starts the walk again from the first page, counted in
 * `position.restarts`.
 */
export async function walkPages<E>(
  open: (paging: PagingOptions) => Paginator<E>,
  position: PagePosition,
  budget: WalkBudget,
  onPage: (entries: E[]) => Promise<void>,
): Promise<boolean> {
  const walk = open({
    continuation: position.continuation,
    budget,
    onRefusedContinuation: () => {
      position.continuation = null;
      position.restarts++;
    },
  });
  for await (const page of walk.pages()) {
    await onPage(page.entries);
    position.pages++;
    position.continuation = page.continuationToken || null;
  }
  return walk.reachedEnd;
}
