import { describe, expect, it } from 'vitest';
import { type PagePosition, walkPages } from '../../functions/infection-alerter/page-walk.js';
import type { WalkBudget } from '../../functions/infection-alerter/walk-budget.js';
import { HttpError, type Page, Paginator, type PagingOptions } from '../../lib/index.js';

/**
 * A paged operation held in memory: entries 0..total-1, `size` a page, the token of a page is
 * `p<index>`. `refuse` answers a 400, once each, for the tokens it names, as the service does
 * for an expired continuation.
 */
function pagedNumbers(total: number, size: number, refuse: Set<string> = new Set(), status = 400) {
  const fetched: (string | null)[] = [];
  const open = (paging: PagingOptions) =>
    new Paginator<number>(
      async (token) => {
        fetched.push(token ?? null);
        // Refused once: the fresh walk's tokens are new ones the service accepts.
        if (token && refuse.delete(token))
          throw new HttpError(status, 'GET', 'https://service.test/api/status/gsm/X', {
            detail: 'continuation has expired; start the query again.',
          });
        const index = token ? Number(token.slice(1)) : 0;
        const entries = Array.from(
          { length: Math.min(size, total - index * size) },
          (_, i) => index * size + i,
        );
        const last = (index + 1) * size >= total;
        return {
          entries,
          continuationToken: last ? null : `p${index + 1}`,
          raw: { Count: entries.length, ContinuationURI: null },
          entryTexts: () => entries.map(String),
        } satisfies Page<number>;
      },
      { ...paging, prefetch: true },
    );
  return { open, fetched };
}

/** A budget spent once `pages` pages were handed to the walk. */
function budgetOf(pagesAllowed: () => number, seen: () => number): WalkBudget {
  return { spent: () => seen() >= pagesAllowed() };
}

const fresh = (): PagePosition => ({ continuation: null, pages: 0, restarts: 0 });

describe('Function: walkPages', () => {
  it('walks every page when the budget lasts, and leaves no continuation', async () => {
    const { open } = pagedNumbers(23, 5);
    const seen: number[] = [];
    const position = fresh();
    const done = await walkPages(open, position, { spent: () => false }, async (entries) => {
      seen.push(...entries);
    });
    expect(done).toBe(true);
    expect(position).toEqual({ continuation: null, pages: 5, restarts: 0 });
    expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => i));
  });

  it('stops at page boundaries and, resumed, sees every entry exactly once', async () => {
    for (const perRun of [1, 2, 3, 4]) {
      const { open } = pagedNumbers(23, 5);
      const seen: number[] = [];
      const position = fresh();
      let runs = 0;
      let done = false;
      while (!done) {
        runs++;
        const base = position.pages;
        done = await walkPages(
          open,
          position,
          budgetOf(
            () => perRun,
            () => position.pages - base,
          ),
          async (entries) => {
            seen.push(...entries);
          },
        );
        if (!done) expect(position.continuation).toBe(`p${position.pages}`);
      }
      expect(runs).toBe(Math.ceil(5 / perRun));
      expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => i));
    }
  });

  it('fetches nothing when the budget is spent before the first page', async () => {
    const { open, fetched } = pagedNumbers(10, 5);
    const position: PagePosition = { continuation: 'p1', pages: 1, restarts: 0 };
    const done = await walkPages(open, position, { spent: () => true }, async () => {});
    expect(done).toBe(false);
    expect(fetched).toEqual([]);
    expect(position).toEqual({ continuation: 'p1', pages: 1, restarts: 0 });
  });

  it('starts again from the first page when the saved continuation is refused', async () => {
    const { open } = pagedNumbers(12, 5, new Set(['p1']));
    const seen: number[] = [];
    const position: PagePosition = { continuation: 'p1', pages: 1, restarts: 0 };
    const done = await walkPages(open, position, { spent: () => false }, async (entries) => {
      seen.push(...entries);
    });
    expect(done).toBe(true);
    expect(position).toEqual({ continuation: null, pages: 4, restarts: 1 });
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('starts again on a 404 or 410 for the saved continuation too, never on a 500', async () => {
    for (const status of [404, 410]) {
      const { open } = pagedNumbers(12, 5, new Set(['p1']), status);
      const position: PagePosition = { continuation: 'p1', pages: 1, restarts: 0 };
      expect(await walkPages(open, position, { spent: () => false }, async () => {})).toBe(true);
      expect(position.restarts, `${status}`).toBe(1);
    }
    const failing = pagedNumbers(12, 5, new Set(['p1']), 500);
    const position: PagePosition = { continuation: 'p1', pages: 1, restarts: 0 };
    await expect(
      walkPages(failing.open, position, { spent: () => false }, async () => {}),
    ).rejects.toThrow(HttpError);
    expect(position.restarts).toBe(0);
  });

  it('fails on a 400 past the first page, which no saved token explains', async () => {
    const later = pagedNumbers(12, 5, new Set(['p2']));
    const position = fresh();
    await expect(
      walkPages(later.open, position, { spent: () => false }, async () => {}),
    ).rejects.toThrow(HttpError);
    // The page before the failure was done; the walk would go on at the refused one.
    expect(position).toEqual({ continuation: 'p2', pages: 2, restarts: 0 });
  });

  it('keeps a page that its reader failed on as the place to go on', async () => {
    const { open } = pagedNumbers(12, 5);
    const position = fresh();
    await expect(
      walkPages(open, position, { spent: () => false }, async (entries) => {
        if (entries.includes(7)) throw new Error('state write failed');
      }),
    ).rejects.toThrow('state write failed');
    expect(position).toEqual({ continuation: 'p1', pages: 1, restarts: 0 });
  });
});
