import type { S3Client } from '@aws-sdk/client-s3';
import {
  type ArchivedObject,
  type ResumableCheckpoint,
  ResumableObjectWriter,
  snapshotKey,
  UploadGoneError,
} from '../../lib/aws/index.js';
import type { AdaptiveLimiter } from '../../lib/http/index.js';
import { type PageFetcher, Paginator, type SkywatchClient } from '../../lib/index.js';
import type { WalkTask } from './day-job.js';

/** Entries per status page: the service's largest. */
export const SNAPSHOT_PAGE_SIZE = 1000;

export interface WalkDeps {
  client: SkywatchClient;
  s3: S3Client;
  bucket: string;
  gzipLevel: number;
  /** Bytes of a multipart part (S3's smallest unless a test says otherwise). */
  partSize?: number;
  /** Entries a page. @default SNAPSHOT_PAGE_SIZE */
  pageSize?: number;
  limiter: AdaptiveLimiter;
  /** Epoch ms at which calls still running are cut: the invocation's pause. */
  pauseAt: number;
  /** True once no page may start: the pause came, or the job was lost to another owner. */
  stopping: () => boolean;
  /** Told of each page archived. */
  onPage?: () => void;
}

export type WalkOutcome =
  | { kind: 'done'; object: ArchivedObject }
  /** Stopped for the invocation's deadline; the checkpoint says where to go on. */
  | { kind: 'paused'; checkpoint: ResumableCheckpoint }
  /** Failed; the checkpoint keeps the parts already uploaded for a later attempt. */
  | { kind: 'failed'; error: unknown; checkpoint: ResumableCheckpoint };

const OPERATION = {
  'agent-status': { console: '4.3', site: '4.1' },
  'dnsp-status': { console: '4.4', site: '4.2' },
} as const;

/**
 * One page of a walk: the console's 4.3 or 4.4, or a site's 4.1 or 4.2, as the task says, each
 * call through the job's limiter and cut at the invocation's pause. The entries are kept as the
 * service sent them, never read, so they are not validated either (the functions that read them
 * count their surprises); the envelope is checked as always.
 */
function pageFetcher(deps: WalkDeps, gsm: string, task: WalkTask): PageFetcher<unknown> {
  const of = {
    kind: task.site === undefined ? 'gsm' : 'site',
    status: task.dataset === 'agent-status' ? 'agent' : 'dnsp',
    keyCode: task.site ?? gsm,
  } as const;
  const batchSize = deps.pageSize ?? SNAPSHOT_PAGE_SIZE;
  return (continuation) =>
    deps.limiter.run(() =>
      deps.client
        .statusAsSent(of, {
          batchSize,
          deadline: deps.pauseAt,
          ...(continuation === undefined ? {} : { continuation }),
        })
        .firstPage(),
    );
}

/** Where a writer's walk goes on: the start (null), a continuation, or only its finish. */
function resumePoint(checkpoint: ResumableCheckpoint): string | null | 'end' {
  if (checkpoint.pages === 0) return null;
  return checkpoint.continuation ?? 'end';
}

async function openWriter(
  deps: WalkDeps,
  key: string,
  metadata: Record<string, string>,
  checkpoint: ResumableCheckpoint | undefined,
): Promise<ResumableObjectWriter> {
  if (checkpoint) {
    try {
      // The checkpoint carries the level, part size and metadata the walk began with.
      return await ResumableObjectWriter.resume(deps.s3, deps.bucket, checkpoint);
    } catch (error) {
      // The upload was cleaned up (lifecycle, abort): the walk starts again from its first page.
      if (!(error instanceof UploadGoneError)) throw error;
    }
  }
  return ResumableObjectWriter.start(deps.s3, deps.bucket, key, {
    gzipLevel: deps.gzipLevel,
    metadata,
    ...(deps.partSize === undefined ? {} : { partSize: deps.partSize }),
  });
}

/**
 * One snapshot walk, from its checkpoint when it has one, page after page into its object (the
 * next page fetched while the current one is compressed) until the last page, the invocation's
 * pause, or a failure. Each page's entries are archived as the service wrote them. Parts are cut
 * by content alone, so a walk resumed from a checkpoint writes the bytes an uninterrupted walk
 * would have written.
 */
export async function runWalk(
  deps: WalkDeps,
  gsm: string,
  day: string,
  task: WalkTask,
): Promise<WalkOutcome> {
  const key = snapshotKey(task.dataset, gsm, day, task.site);
  const metadata = {
    operation: OPERATION[task.dataset][task.site === undefined ? 'console' : 'site'],
    gsm,
    ...(task.site === undefined ? {} : { site: task.site }),
  };
  let writer = await openWriter(deps, key, metadata, task.checkpoint);
  const resumedFrom = resumePoint(writer.checkpoint());
  if (resumedFrom === 'end') return { kind: 'done', object: await writer.finish() };
  const walk = new Paginator(pageFetcher(deps, gsm, task), {
    continuation: resumedFrom,
    // A console's walk asks for its next page while this one is compressed. Site walks run
    // many at once, which keeps the service busy already; one page each bounds memory.
    prefetch: task.site === undefined,
    budget: { spent: deps.stopping },
    // The saved continuation is refused: no half object, the walk starts over.
    onRefusedContinuation: async () => {
      await writer.abort();
      writer = await openWriter(deps, key, metadata, undefined);
    },
  });
  try {
    for await (const page of walk.pages()) {
      await writer.addPage(page.entryTexts(), page.continuationToken);
      deps.onPage?.();
    }
    if (walk.reachedEnd) return { kind: 'done', object: await writer.finish() };
    return { kind: 'paused', checkpoint: await writer.settle() };
  } catch (error) {
    await walk.settled();
    if (deps.stopping()) return { kind: 'paused', checkpoint: await writer.settle() };
    return {
      kind: 'failed',
      error,
      checkpoint: await writer.settle().catch(() => writer.checkpoint()),
    };
  }
}
