import { describe, expect, it } from 'vitest';
import { archiveSnapshots } from '../../functions/report-fetcher/archive-snapshots.js';
import type { ArchivedObject, RecordBatch, ReportStore } from '../../lib/aws/index.js';
import type { Page, SkywatchClient } from '../../lib/index.js';

type Log = string[];

/** A snapshot walk of `count` one-entry pages that logs each page and fails on `failAt`. */
function walk(log: Log, name: string, count: number, failAt?: number) {
  return {
    pages: async function* (): AsyncGenerator<Page<unknown>> {
      for (let i = 0; i < count; i++) {
        if (i === failAt) throw new Error(`${name} page ${i} failed`);
        log.push(`${name} page ${i}`);
        yield {
          entries: [{ i }],
          continuationToken: null,
          raw: { Count: 1, ContinuationURI: null },
          entryTexts: () => [`{"i":${i}}`],
        };
      }
    },
  };
}

/** A store whose uploads finish only when `finish(key)` is called, or fail when told to. */
function slowStore(log: Log, failUpload?: string) {
  const finishers = new Map<string, () => void>();
  const store = {
    async streamRecords(key: string, batches: AsyncIterable<RecordBatch>) {
      let records = 0;
      for await (const batch of batches)
        records += (batch as { jsonTexts: string[] }).jsonTexts.length;
      log.push(`${key} read`);
      await new Promise<void>((resolve) => finishers.set(key, resolve));
      log.push(`${key} uploaded`);
      if (key === failUpload) throw new Error(`${key} upload failed`);
      return { key, records, bytes: 1, sha256: 'x', written: true } satisfies ArchivedObject;
    },
  };
  return {
    store: store as unknown as ReportStore,
    finish: (key: string) => finishers.get(key)?.(),
  };
}

/** A client whose two snapshot walks are the given ones. */
function clientOf(agents: () => ReturnType<typeof walk>, dnsp: () => ReturnType<typeof walk>) {
  return { gsmAgentStatus: agents, gsmDnspStatus: dnsp } as unknown as SkywatchClient;
}

const key = (dataset: string) => `reports/${dataset}/gsm=G/date=2026-06-15/snapshot.ndjson.gz`;
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('Function: archiveSnapshots', () => {
  it('walks the DNSP snapshot while the agent snapshot is still uploading', async () => {
    const log: Log = [];
    const client = clientOf(
      () => walk(log, 'agents', 2),
      () => walk(log, 'dnsp', 2),
    );
    const { store, finish } = slowStore(log);
    const done = archiveSnapshots(client, store, 'G', '2026-06-15');
    await tick();
    // Assess: every DNSP page was read before the agent upload was let finish.
    expect(log).toEqual([
      'agents page 0',
      'agents page 1',
      `${key('agent-status')} read`,
      'dnsp page 0',
      'dnsp page 1',
      `${key('dnsp-status')} read`,
    ]);
    finish(key('agent-status'));
    finish(key('dnsp-status'));
    const objects = await done;
    expect(objects.map((o) => [o.key, o.records])).toEqual([
      [key('agent-status'), 2],
      [key('dnsp-status'), 2],
    ]);
  });

  it('fails before the DNSP walk starts when an agent page fails', async () => {
    const log: Log = [];
    let dnspAsked = false;
    const client = clientOf(
      () => walk(log, 'agents', 3, 1),
      () => {
        dnspAsked = true;
        return walk(log, 'dnsp', 1);
      },
    );
    const { store } = slowStore(log);
    await expect(archiveSnapshots(client, store, 'G', '2026-06-15')).rejects.toThrow(
      'agents page 1 failed',
    );
    expect(dnspAsked).toBe(false);
  });

  it('raises a failed agent upload only once the DNSP upload has settled too', async () => {
    const log: Log = [];
    const client = clientOf(
      () => walk(log, 'agents', 1),
      () => walk(log, 'dnsp', 1),
    );
    const { store, finish } = slowStore(log, key('agent-status'));
    const outcome = archiveSnapshots(client, store, 'G', '2026-06-15').catch((e: Error) => e);
    await tick();
    finish(key('agent-status'));
    await tick();
    expect(log.at(-1)).toBe(`${key('agent-status')} uploaded`);
    finish(key('dnsp-status'));
    expect(((await outcome) as Error).message).toBe(`${key('agent-status')} upload failed`);
    expect(log.at(-1)).toBe(`${key('dnsp-status')} uploaded`);
  });
});
