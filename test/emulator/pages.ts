/** Paging helpers for 4.1–4.4: the envelope and a walk that follows ContinuationToken. */
import type { Emulator } from '../../emulator/index.js';
import { type CallOptions, getOk, type Json } from './http.js';

export interface Page {
  QueryResults: Json[];
  ContinuationToken: string | null;
  ContinuationURI: string | null;
  Count: number;
}

/** Follows ContinuationToken to the end; returns every entry and every page. */
export async function walk(
  em: Emulator,
  path: string,
  tok: string,
  query: CallOptions['query'] = {},
): Promise<{ entries: Json[]; pages: Page[] }> {
  const pages: Page[] = [];
  let continuation: string | undefined;
  for (let i = 0; i < 10_000; i += 1) {
    const page = (await getOk(em, path, {
      token: tok,
      query: { ...query, continuation },
    })) as unknown as Page;
    pages.push(page);
    if (page.ContinuationToken === null) break;
    continuation = page.ContinuationToken;
  }
  return { entries: pages.flatMap((p) => p.QueryResults), pages };
}

export function machineIdsOf(entries: Json[]): string[] {
  return entries.map((e) => String(e.MachineID));
}
