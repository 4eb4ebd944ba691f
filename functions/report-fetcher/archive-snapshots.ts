import {
  type ArchivedObject,
  type RecordBatch,
  type ReportStore,
  reportKey,
} from '../../lib/aws/index.js';
import type { Page, SkywatchClient } from '../../lib/index.js';

/** Each page's entries as the service wrote them: archived as received, not serialised again. */
async function* pageTexts<E>(pages: AsyncIterable<Page<E>>): AsyncGenerator<RecordBatch> {
  for await (const page of pages) yield { jsonTexts: page.entryTexts() };
}

/**
 * Full status snapshots (4.3, 4.4) streamed page by page into one gzip NDJSON object each.
 * Pages of 1,000 with the next one prefetched while the current one is compressed and uploaded;
 * nothing accumulates, so memory is flat for a million endpoints.
 */
export async function archiveSnapshots(
  client: SkywatchClient,
  store: ReportStore,
  gsm: string,
  day: string,
): Promise<ArchivedObject[]> {
  const paging = { batchSize: 1000, prefetch: true } as const;
  const agents = await store.streamRecords(
    reportKey({ dataset: 'agent-status', gsm, date: day, file: 'snapshot.ndjson.gz' }),
    pageTexts(client.gsmAgentStatus(gsm, paging).pages()),
    { operation: '4.3', gsm },
  );
  const dnsp = await store.streamRecords(
    reportKey({ dataset: 'dnsp-status', gsm, date: day, file: 'snapshot.ndjson.gz' }),
    pageTexts(client.gsmDnspStatus(gsm, paging).pages()),
    { operation: '4.4', gsm },
  );
  return [agents, dnsp];
}
