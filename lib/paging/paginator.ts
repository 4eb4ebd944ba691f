/** One batch of a paged operation (2.1), with what is needed to resume after it. */
export interface Page<E> {
  entries: E[];
  /** Pass as `continuation` to resume after this page; null on the last page. */
  continuationToken: string | null;
  /** The envelope as received, extra fields included. */
  raw: { Count: number; ContinuationURI: string | null; [key: string]: unknown };
}

export interface PagingOptions {
  /** Resume from this continuation token (from a previous page). */
  continuation?: string;
  /** Fetch the next page while the caller works on the current one. @default false */
  prefetch?: boolean;
  /** Stop after this many pages (the last page's token lets a later run resume). */
  maxPages?: number;
}

export type PageFetcher<E> = (continuation: string | undefined) => Promise<Page<E>>;

/**
 * Walks a paged operation lazily. Iterate it for entries or call `pages()` for batches; at most
 * two pages are held at once (the current one and, with prefetch, the next), however many
 * entries there are. `break` out of the loop at any time.
 *
 * @example
 * for await (const endpoint of client.siteAgentStatus('ABCD-…', { batchSize: 500 })) { … }
 */
export class Paginator<E> implements AsyncIterable<E> {
  constructor(
    private readonly fetchPage: PageFetcher<E>,
    private readonly options: PagingOptions = {},
  ) {}

  /**
   * Yields pages in order, following ContinuationToken with the same query.
   *
   * @example
   * for await (const page of paginator.pages()) save(page.continuationToken);
   */
  async *pages(): AsyncGenerator<Page<E>, void, undefined> {
    const max = this.options.maxPages ?? Number.POSITIVE_INFINITY;
    if (max <= 0) return;
    let pending: Promise<Page<E>> | undefined = this.fetchPage(this.options.continuation);
    let count = 0;
    while (pending) {
      const page: Page<E> = await pending;
      pending = undefined;
      count++;
      const next = page.continuationToken;
      const more = next !== null && next !== '' && count < max;
      if (more && this.options.prefetch) {
        pending = this.fetchPage(next);
        // Held until awaited below; keeps an early `break` from raising an unhandled rejection.
        pending.catch(() => {});
      }
      yield page;
      if (more && !pending) pending = this.fetchPage(next);
    }
  }

  /**
   * Yields entries one by one across pages.
   *
   * @example
   * for await (const e of paginator.entries()) if (e.BasicInfo?.Infected) alert(e);
   */
  async *entries(): AsyncGenerator<E, void, undefined> {
    for await (const page of this.pages()) yield* page.entries;
  }

  /**
   * Fetches only the first page (or the page at `continuation`).
   *
   * @example
   * const { entries, continuationToken } = await paginator.firstPage();
   */
  async firstPage(): Promise<Page<E>> {
    return this.fetchPage(this.options.continuation);
  }

  [Symbol.asyncIterator](): AsyncIterator<E> {
    return this.entries();
  }
}
