import { continuationRefused, type Page, type Paginator } from '../../lib/index.js';
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
 * at the first page not fully seen: entries are seen at least once and never skipped.
 */
export async function walkPages<E>(
  open: (continuation: string | null) => Paginator<E>,
  position: PagePosition,
  budget: WalkBudget,
  onPage: (entries: E[]) => Promise<void>,
): Promise<boolean> {
  if (budget.spent()) return false;
  let pages = open(position.continuation).pages();
  try {
    let next: IteratorResult<Page<E>>;
    try {
      next = await pages.next();
    } catch (error) {
      // A saved continuation refused: tokens expire or stop matching the query when a setting
      // changed. A refusal not about the token comes back on the fresh walk's first page.
      if (position.continuation === null || !continuationRefused(error)) throw error;
      position.continuation = null;
      position.restarts++;
      pages = open(null).pages();
      next = await pages.next();
    }
    while (!next.done) {
      await onPage(next.value.entries);
      position.pages++;
      position.continuation = next.value.continuationToken || null;
      if (position.continuation === null) return true;
      if (budget.spent()) return false;
      next = await pages.next();
    }
    return true;
  } finally {
    await pages.return(undefined);
  }
}
