import { describe, expect, it } from 'vitest';
import { type Page, Paginator } from '../../lib/index.js';

/** Pages of 3 numbers up to `total`; the token is the next start index. */
function source(total: number) {
  const calls: Array<string | undefined> = [];
  const fetchPage = async (continuation: string | undefined): Promise<Page<number>> => {
    calls.push(continuation);
    const start = continuation ? Number(continuation) : 0;
    const entries = Array.from({ length: Math.min(3, total - start) }, (_, i) => start + i);
    const next = start + 3 < total ? String(start + 3) : null;
    return {
      entries,
      continuationToken: next,
      raw: { Count: entries.length, ContinuationURI: null },
      entryTexts: () => entries.map(String),
    };
  };
  return { calls, fetchPage };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('Class: Paginator', () => {
  it('yields every entry across pages, following the continuation token', async () => {
    const s = source(10);
    expect(await collect(new Paginator(s.fetchPage))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(s.calls).toEqual([undefined, '3', '6', '9']);
  });

  it('fetches lazily: nothing before iteration, nothing after a break', async () => {
    const s = source(100);
    const p = new Paginator(s.fetchPage);
    expect(s.calls).toHaveLength(0);
    for await (const n of p) if (n === 4) break;
    expect(s.calls).toEqual([undefined, '3']);
  });

  it('prefetches the next page while the caller works on the current one', async () => {
    const s = source(9);
    const p = new Paginator(s.fetchPage, { prefetch: true });
    const pages = p.pages();
    await pages.next();
    expect(s.calls).toEqual([undefined, '3']);
    await pages.return(undefined);
  });

  it('stops at maxPages and resumes from the last token', async () => {
    const s = source(10);
    const pages = await collect(new Paginator(s.fetchPage, { maxPages: 2 }).pages());
    expect(pages.flatMap((p) => p.entries)).toEqual([0, 1, 2, 3, 4, 5]);
    const resume = pages.at(-1)?.continuationToken ?? undefined;
    expect(await collect(new Paginator(s.fetchPage, { continuation: resume }))).toEqual([
      6, 7, 8, 9,
    ]);
  });

  it('leaves resumeToken after the last page a capped entries loop walked', async () => {
    const s = source(10);
    const first = new Paginator(s.fetchPage, { maxPages: 2 });
    expect(await collect(first)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(first.resumeToken).toBe('6');
    expect(first.reachedEnd).toBe(false);
    const rest = new Paginator(s.fetchPage, { continuation: first.resumeToken, maxPages: 2 });
    expect(await collect(rest)).toEqual([6, 7, 8, 9]);
    expect(rest.resumeToken).toBeNull();
    expect(rest.reachedEnd).toBe(true);
  });

  it('keeps resumeToken on the page being worked on after a break, so nothing is skipped', async () => {
    const s = source(10);
    const p = new Paginator(s.fetchPage, { prefetch: true });
    for await (const n of p) if (n === 4) break;
    // Entry 5 of the page starting at 3 was never handed out: that page is walked again.
    expect(p.resumeToken).toBe('3');
    const pages = new Paginator(s.fetchPage);
    for await (const page of pages.pages()) if (page.entries.includes(6)) break;
    expect(pages.resumeToken).toBe('6');
  });

  it('starts from the beginning for a null, undefined or empty continuation', async () => {
    for (const continuation of [null, undefined, '']) {
      const s = source(4);
      const p = new Paginator(s.fetchPage, { continuation });
      expect(p.resumeToken).toBeNull();
      expect(p.reachedEnd).toBe(false);
      expect(await collect(p)).toEqual([0, 1, 2, 3]);
      expect(s.calls[0]).toBeUndefined();
    }
  });

  it('moves resumeToken past the page firstPage returns', async () => {
    const s = source(10);
    const p = new Paginator(s.fetchPage, { continuation: '3' });
    expect((await p.firstPage()).entries).toEqual([3, 4, 5]);
    expect(p.resumeToken).toBe('6');
  });

  it('fetches only one page for firstPage and none for maxPages 0', async () => {
    const s = source(10);
    expect((await new Paginator(s.fetchPage).firstPage()).entries).toEqual([0, 1, 2]);
    expect(await collect(new Paginator(s.fetchPage, { maxPages: 0 }))).toEqual([]);
    expect(s.calls).toHaveLength(1);
  });

  it('surfaces a failing page to the loop', async () => {
    const p = new Paginator<number>(
      async (c) => {
        if (c) throw new Error('page 2 failed');
        return {
          entries: [1],
          continuationToken: 'x',
          raw: { Count: 1, ContinuationURI: null },
          entryTexts: () => ['1'],
        };
      },
      { prefetch: true },
    );
    await expect(collect(p)).rejects.toThrow('page 2 failed');
  });
});
