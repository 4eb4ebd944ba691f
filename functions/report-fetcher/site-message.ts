import { redact } from '../../lib/index.js';
import * as z from '../../lib/zod.js';
import { archiveSite } from './archive-site.js';
import { finaliseDay } from './manifest.js';
import type { FetchDeps } from './run.js';

const KeyCode = z.string().check(z.regex(/^[A-Za-z0-9._-]+$/, 'must be a key code'));

/** A fan-out message body (SiteTask), validated: its keys end up in S3 keys. */
export const SiteMessage = z.object({
  gsm: KeyCode,
  site: KeyCode,
  day: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')),
  siteCount: z.optional(z.number().check(z.int(), z.minimum(1))),
});

export interface SiteMessageDeps extends Omit<FetchDeps, 'queue'> {
  /** Told about a bookkeeping step that failed but does not fail the site. */
  warn(message: string, error: unknown): void;
}

/**
 * One fan-out message: archives the site and records how it ended (day-records.ts). When the
 * record changed and every site of the day has one, the day's manifest is rebuilt, so the last
 * site to finish (or to fail) completes it, or names what is missing. Resolves when the site
 * is archived; rejects when it is not, so SQS delivers the message again and, after the
 * queue's last try, moves it to the dead-letter queue, where its failed record already marks
 * the site missing.
 */
export async function handleSiteMessage(deps: SiteMessageDeps, body: string): Promise<void> {
  const task = z.parse(SiteMessage, JSON.parse(body));
  let failure: unknown;
  let changed = false;
  try {
    const object = await archiveSite(deps.client, deps.store, task);
    changed = await deps.records.archived(task, [object]);
  } catch (error) {
    failure = error;
    try {
      changed = await deps.records.failed(task, redact((error as Error).message));
    } catch (recordError) {
      deps.warn('could not record the failed site', recordError);
    }
  }
  if (changed && task.siteCount !== undefined) {
    try {
      const listing = await deps.records.listSites(task.gsm, task.day);
      if (listing.size >= task.siteCount) await finaliseDay(deps, task.gsm, task.day, listing);
    } catch (error) {
      // The records are safe; the next daily run's catch-up rebuilds the manifest.
      deps.warn('could not rebuild the manifest', error);
    }
  }
  if (failure !== undefined) throw failure;
}
