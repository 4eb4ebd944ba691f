import { continuationRefused } from './refused-continuation.js';

/** One batch of a paged operation (2.1), with what is needed to resume after it. */
export interface Page<E> {
  entries: E[];
  /** Pass as `continuation` to resume after this page; null on the last page. */
  continuationToken: string | null;
  /** The envelope as received, extra fields included. */
  raw: { Count: number; ContinuationURI: string | null; [key: string]: unknown };
  /**
   * Each entry as one JSON text, in order, worked out on first call: the service's own text of
   * the entry (what an archive should keep, and cheaper than serialising it again), or
   * `JSON.stringify` of the validated entry where the body could not be sliced. Line breaks the
   * service put between an entry's tokens are kept.
   */
  entryTexts(): readonly string[];
}

export interface PagingOptions {
  /**
   * Resume from this continuation token (a page's `continuationToken` or a paginator's
   * `resumeToken`). null, undefined or '' start from the beginning.
   */
  continuation?: string | null;
  /** Fetch the next page while the caller works on the current one. @default false */
  prefetch?: boolean;
  /** Stop after this many pages; `resumeToken` then says where a later walk goes on. */
  maxPages?: number;
  /**
   * Stop at a page boundary once it is spent; `resumeToken` then says where a later walk goes
   * on. Asked before each page is requested (the first one and a prefetch included) and when
   * the caller asks for the next page: once spent, no page is requested and a prefetched one is
   * dropped, so no page is started after the budget ran out. @default never spent
   */
  budget?: PageBudget;
  /**
   * When the service refuses `continuation` on the walk's first page (`continuationRefused`:
   * tokens expire, or stop matching a query whose settings changed), this is called and awaited
   * (to drop what was kept of the walk), then the walk starts again once from the first page.
   * Without it, or on any other failure, the walk fails. @default fail
   */
  onRefusedContinuation?: () => void | Promise<void>;
}

/** Says when a walk must stop at its next page boundary: a deadline near, a lease lost. */
export interface PageBudget {
  /** True when no further page should be started. */
  spent(): boolean;
}

export type PageFetcher<E> = (continuation: string | undefined) => Promise<Page<E>>;

/** An empty token means "no more pages" from the service and "from the start" from a caller. */
function tokenOrNull(token: string | null | undefined): string | null {
  return token === undefined || token === '' ? null : token;
}

/**
 * Walks a paged operation lazily. Iterate it for entries or call `pages()` for batches; at most
 * two pages are held at once (the current one and, with prefetch, the next), however many
 * entries there are. `break` out of the loop at any time; `resumeToken` says where to go on.
 *
 * @example
 * for await (const endpoint of client.siteAgentStatus('ABCD-…', { batchSize: 500 })) { … }
 */
export class Paginator<E> implements AsyncIterable<E> {
  private resumeFrom: string | null;
  private ended = false;
  private inFlight: Promise<unknown> | undefined;

  constructor(
    private readonly fetchPage: PageFetcher<E>,
    private readonly options: PagingOptions = {},
  ) {
    this.resumeFrom = tokenOrNull(options.continuation);
  }

  /**
   * Where a later walk must start (as `continuation`, in this process or a later one) so that
   * nothing handed out by the latest walk is skipped. It moves past a page once the caller asks
   * for what follows it (the next page, or the entry after the page's last one), so a walk that
   * stops at `maxPages` leaves the token of the page after the last one walked, and a `break`
   * leaves the token of the page being worked on: that page is fetched again, entries are seen
   * at least once and never skipped. null when the walk reached the last page (see `reachedEnd`)
   * or has not moved yet from the beginning.
   *
   * @example
   * const walk = client.gsmAgentStatus(key, { maxPages: 50, continuation: saved });
   * for await (const endpoint of walk) check(endpoint);
   * saved = walk.resumeToken; // null: every page was walked, the next run starts afresh
   */
  get resumeToken(): string | null {
    return this.ended ? null : this.resumeFrom;
  }

  /** True once the latest walk went past the service's last page. */
  get reachedEnd(): boolean {
    return this.ended;
  }

  /**
   * Yields pages in order, following ContinuationToken with the same query.
   *
   * @example
   * for await (const page of paginator.pages()) save(page.continuationToken);
   */
  async *pages(): AsyncGenerator<Page<E>, void, undefined> {
    yield* this.walk((page) => [page]);
  }

  /**
   * Yields entries one by one across pages.
   *
   * @example
   * for await (const e of paginator.entries()) if (e.BasicInfo?.Infected) alert(e);
   */
  async *entries(): AsyncGenerator<E, void, undefined> {
    yield* this.walk((page) => page.entries);
  }

  /**
   * Resolves once no page request of this paginator is running, such as a prefetch the caller
   * broke away from; never rejects. For a caller that must not go on (settle a checkpoint, end
   * an invocation) with a call still out.
   *
   * @example
   * try { for await (const page of walk.pages()) await store(page); }
   * catch (error) { await walk.settled(); await checkpoint(); throw error; }
   */
  async settled(): Promise<void> {
    await this.inFlight?.catch(() => {});
  }

  /**
   * Fetches only the first page (or the page at `continuation`); `resumeToken` moves past it.
   * Neither `budget` nor `onRefusedContinuation` applies.
   *
   * @example
   * const { entries, continuationToken } = await paginator.firstPage();
   */
  async firstPage(): Promise<Page<E>> {
    const start = tokenOrNull(this.options.continuation);
    const page = await this.fetchPage(start ?? undefined);
    this.passed(page.continuationToken);
    return page;
  }

  [Symbol.asyncIterator](): AsyncIterator<E> {
    return this.entries();
  }

  /** Records that the caller is done with a page whose successor is at `next`. */
  private passed(next: string | null): void {
    this.resumeFrom = tokenOrNull(next);
    this.ended = this.resumeFrom === null;
  }

  private request(continuation: string | null): Promise<Page<E>> {
    const page = this.fetchPage(continuation ?? undefined);
    this.inFlight = page;
    return page;
  }

  private async *walk<T>(items: (page: Page<E>) => Iterable<T>): AsyncGenerator<T, void> {
    let start = tokenOrNull(this.options.continuation);
    this.resumeFrom = start;
    this.ended = false;
    const { maxPages = Number.POSITIVE_INFINITY, prefetch, budget } = this.options;
    const spent = () => budget?.spent() === true;
    if (maxPages <= 0 || spent()) return;
    let pending: Promise<Page<E>> | undefined = this.request(start);
    let count = 0;
    while (pending) {
      let page: Page<E>;
      try {
        page = await pending;
      } catch (error) {
        const restart = this.options.onRefusedContinuation;
        if (count > 0 || start === null || !restart || !continuationRefused(error)) throw error;
        // Once only: a refusal of the fresh walk's first page is not about the token.
        await restart();
        start = null;
        this.resumeFrom = null;
        pending = this.request(null);
        continue;
      }
      pending = undefined;
      count++;
      const next = tokenOrNull(page.continuationToken);
      const more = next !== null && count < maxPages;
      if (more && prefetch && !spent()) {
        pending = this.request(next);
        // Held until awaited below; keeps an early `break` from raising an unhandled rejection.
        pending.catch(() => {});
      }
      yield* items(page);
      // Reached only when the caller asked for more after this page: it is done with it.
      this.passed(next);
      // A page boundary: a prefetched page is dropped when the budget ran out meanwhile.
      if (!more || spent()) return;
      pending ??= this.request(next);
    }
  }
}
