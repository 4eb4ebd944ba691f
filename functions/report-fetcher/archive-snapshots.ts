import {
  type ArchivedObject,
  type RecordBatch,
  type ReportStore,
  reportKey,
} from '../../lib/aws/index.js';
import type { Page, SkywatchClient } from '../../lib/index.js';

/**
 * Each page's entries as the service wrote them, archived as received rather than serialised
 * again; `walked` is called once the last page has been handed over.
 */
async function* pageTexts<E>(
  pages: AsyncIterable<Page<E>>,
  walked: () => void = () => {},
): AsyncGenerator<RecordBatch> {
  for await (const page of pages) yield { jsonTexts: page.entryTexts() };
  walked();
}

/** How a snapshot is walked: pages of 1,000, the next prefetched. */
export const SNAPSHOT_PAGING = { batchSize: 1000, prefetch: true } as const;

/**
 * Full status snapshots (4.3, 4.4) streamed page by page into one gzip NDJSON object each.
 * Pages of 1,000 with the next one prefetched while the current one is compressed and uploaded;
 * nothing accumulates, so memory is flat for a million endpoints. The DNSP walk starts as soon
 * as the last agent page is read, while the agent snapshot's last part and the completion of
 * its upload are still on their way (docs/performance.md).
 */
export async function archiveSnapshots(
  client: SkywatchClient,
  store: ReportStore,
  gsm: string,
  day: string,
): Promise<ArchivedObject[]> {
  let agentPagesRead = () => {};
  const agentsWalked = new Promise<void>((resolve) => {
    agentPagesRead = resolve;
  });
  const agents = store.streamRecords(
    reportKey({ dataset: 'agent-status', gsm, date: day, file: 'snapshot.ndjson.gz' }),
    pageTexts(client.gsmAgentStatus(gsm, SNAPSHOT_PAGING).pages(), agentPagesRead),
    { operation: '4.3', gsm },
  );
  // A failure before the last agent page ends the run here, before the DNSP walk starts.
  await Promise.race([agentsWalked, agents]);
  const dnsp = store.streamRecords(
    reportKey({ dataset: 'dnsp-status', gsm, date: day, file: 'snapshot.ndjson.gz' }),
    pageTexts(client.gsmDnspStatus(gsm, SNAPSHOT_PAGING).pages()),
    { operation: '4.4', gsm },
  );
  // Both settle before either failure is raised: no upload is left running behind the run.
  const [agentsOutcome, dnspOutcome] = await Promise.allSettled([agents, dnsp]);
  if (agentsOutcome.status === 'rejected') throw agentsOutcome.reason;
  if (dnspOutcome.status === 'rejected') throw dnspOutcome.reason;
  return [agentsOutcome.value, dnspOutcome.value];
}
