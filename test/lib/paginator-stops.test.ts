import { describe, expect, it } from 'vitest';
import { HttpError, type Page, Paginator, type PagingOptions } from '../../lib/index.js';

/**
 * Pages of 3 numbers up to `total`; the token is the next start index. `refuse` answers a 400
 * (or `status`), once each, for the tokens it names, as the service does for an expired
 * continuation. `answered` lists the calls answered so far, in order.
 */
function source(total: number, refuse = new Set<string>(), status = 400) {
  const calls: Array<string | undefined> = [];
  const answered: Array<string | undefined> = [];
  const fetchPage = async (continuation: string | undefined): Promise<Page<number>> => {
    calls.push(continuation);
    if (continuation && refuse.delete(continuation))
      throw new HttpError(status, 'GET', 'https://service.test/api/status/gsm/X', {
        detail: 'continuation has expired; start the query again.',
      });
    const start = continuation ? Number(continuation) : 0;
    const entries = Array.from({ length: Math.min(3, total - start) }, (_, i) => start + i);
    answered.push(continuation);
    return {
      entries,
      continuationToken: start + 3 < total ? String(start + 3) : null,
      raw: { Count: entries.length, ContinuationURI: null },
      entryTexts: () => entries.map(String),
    };
  };
  return { calls, answered, fetchPage };
}

async function walkAll(p: Paginator<number>, onPage: (entries: number[]) => void = () => {}) {
  const seen: number[] = [];
  for await (const page of p.pages()) {
    onPage(page.entries);
    seen.push(...page.entries);
  }
  return seen;
}

const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('Class: Paginator, option onRefusedContinuation', () => {
  it('starts again once from the first page when the saved continuation is refused', async () => {
    const s = source(10, new Set(['6']));
    const order: string[] = [];
    const p = new Paginator(s.fetchPage, {
      continuation: '6',
      onRefusedContinuation: async () => {
        order.push(`restart after ${s.calls.length} call`);
      },
    });
    expect(await walkAll(p)).toEqual(upTo(10));
    expect(order).toEqual(['restart after 1 call']);
    expect(s.calls).toEqual(['6', undefined, '3', '6', '9']);
    expect(p.reachedEnd).toBe(true);
  });

  it('fails without the option, on a 500, and on a fresh walk (no saved token)', async () => {
    const cases: Array<[string, ReturnType<typeof source>, PagingOptions]> = [
      ['no option', source(10, new Set(['6'])), { continuation: '6' }],
      ['500', source(10, new Set(['6']), 500), { continuation: '6' }],
      ['fresh walk', source(10, new Set(['3'])), {}],
    ];
    for (const [name, s, options] of cases) {
      let restarts = 0;
      const p = new Paginator(s.fetchPage, {
        ...options,
        ...(name === 'no option' ? {} : { onRefusedContinuation: () => void restarts++ }),
      });
      await expect(walkAll(p), name).rejects.toThrow(HttpError);
      expect(restarts, name).toBe(0);
    }
  });

  it('leaves resumeToken at the first page when the fresh walk fails after a restart', async () => {
    const s = source(10, new Set(['6']));
    const p = new Paginator<number>(
      async (c) => (c === undefined ? Promise.reject(new Error('down')) : s.fetchPage(c)),
      { continuation: '6', onRefusedContinuation: () => {} },
    );
    await expect(walkAll(p)).rejects.toThrow('down');
    expect(p.resumeToken).toBeNull();
    expect(p.reachedEnd).toBe(false);
  });

  it('restarts once only: a refusal of the fresh first page fails the walk', async () => {
    let restarts = 0;
    const refuseAll = async (): Promise<Page<number>> => {
      throw new HttpError(400, 'GET', 'https://service.test/api/status/gsm/X', {});
    };
    const p = new Paginator(refuseAll, {
      continuation: '6',
      onRefusedContinuation: () => void restarts++,
    });
    await expect(walkAll(p)).rejects.toThrow(HttpError);
    expect(restarts).toBe(1);
  });
});

describe('Class: Paginator, option budget', () => {
  it('fetches nothing when the budget is spent before the first page', async () => {
    const s = source(10);
    const p = new Paginator(s.fetchPage, { continuation: '3', budget: { spent: () => true } });
    expect(await walkAll(p)).toEqual([]);
    expect(s.calls).toEqual([]);
    expect(p.resumeToken).toBe('3');
    expect(p.reachedEnd).toBe(false);
  });

  it('stops at the page boundary where it ran out, and resumes there with every entry once', async () => {
    for (const prefetch of [false, true]) {
      const s = source(10);
      let pages = 0;
      const first = new Paginator(s.fetchPage, { prefetch, budget: { spent: () => pages >= 2 } });
      const seen = await walkAll(first, () => pages++);
      expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
      expect(first.resumeToken).toBe('6');
      expect(first.reachedEnd).toBe(false);
      const rest = new Paginator(s.fetchPage, { continuation: first.resumeToken });
      expect([...seen, ...(await walkAll(rest))]).toEqual(upTo(10));
    }
  });

  it('drops a prefetched page when the budget ran out while the caller worked', async () => {
    const s = source(10);
    let spent = false;
    const p = new Paginator(s.fetchPage, { prefetch: true, budget: { spent: () => spent } });
    const seen = await walkAll(p, () => {
      spent = true;
    });
    expect(seen).toEqual([0, 1, 2]);
    // Asked for while the first page was worked on, never handed out: the resume token is its.
    expect(s.calls).toEqual([undefined, '3']);
    expect(p.resumeToken).toBe('3');
    await p.settled();
  });

  it('prefetches nothing once the budget is spent when a page arrives', async () => {
    const s = source(10);
    let asked = 0;
    // Spent from the second question on: the first page is fetched, then nothing more.
    const p = new Paginator(s.fetchPage, { prefetch: true, budget: { spent: () => asked++ > 0 } });
    expect(await walkAll(p)).toEqual([0, 1, 2]);
    expect(s.calls).toEqual([undefined]);
    expect(p.resumeToken).toBe('3');
  });

  it('ends the walk, not pauses it, when the budget runs out on the last page', async () => {
    const s = source(6);
    let pages = 0;
    const p = new Paginator(s.fetchPage, { budget: { spent: () => pages >= 2 } });
    expect(await walkAll(p, () => pages++)).toEqual(upTo(6));
    expect(p.reachedEnd).toBe(true);
    expect(p.resumeToken).toBeNull();
  });
});

describe('Class: Paginator, option prefetch', () => {
  it('fetches the next page while the caller still works on the current one', async () => {
    const s = source(9);
    const p = new Paginator(s.fetchPage, { prefetch: true });
    const during: Array<Array<string | undefined>> = [];
    for await (const page of p.pages()) {
      // The caller's work on a page takes a while; the next page is answered meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 5));
      during.push([...s.answered]);
      if (page.continuationToken === null) break;
    }
    expect(during).toEqual([
      [undefined, '3'],
      [undefined, '3', '6'],
      [undefined, '3', '6'],
    ]);
  });

  it('settled() waits for a prefetch the caller broke away from', async () => {
    let answer: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const s = source(9);
    let ended = false;
    const p = new Paginator<number>(
      async (c) => {
        if (c === undefined) return s.fetchPage(c);
        await held;
        ended = true;
        throw new Error('cut at the deadline');
      },
      { prefetch: true },
    );
    for await (const _ of p.pages()) break;
    const settled = p.settled().then(() => ended);
    answer();
    // Never rejects, even for a prefetch that failed.
    expect(await settled).toBe(true);
  });
});
