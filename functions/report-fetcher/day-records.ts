import pLimit from 'p-limit';
import type { StateStore } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';
import type { SiteTask } from './archive-site.js';
import { sameJson } from './same-json.js';

/**
 * What a report day's archive is made of, kept as small records in the state store:
 *
 *   state/report-fetcher/gsm=<GSM>/date=<day>/run.json          the day's run: sites expected,
 *                                                               objects the fetcher wrote
 *   state/report-fetcher/gsm=<GSM>/date=<day>/site=<SITE>.json  one site's outcome: archived
 *                                                               (with its objects) or failed
 *
 * Whoever archives a site (the fetcher itself, or a site worker fed by the fan-out queue)
 * writes its record; the day's manifest is built from these records (manifest.ts).
 */
export const ArchivedObjectEntry = z.object({
  key: z.string(),
  bytes: z.number(),
  records: z.number(),
  sha256: z.string(),
});
export type ArchivedObjectEntry = z.infer<typeof ArchivedObjectEntry>;

export const RunRecord = z.object({
  schema: z.literal('skywatch.report-run/v1'),
  gsm: z.string(),
  date: z.string(),
  snapshotDate: z.nullable(z.string()),
  /** Site keys of the sites report (4.6), sorted: the sites the day must have. */
  sites: z.array(z.string()),
  /** GSM and site-usage reports and status snapshots: what the fetcher writes itself. */
  objects: z.array(ArchivedObjectEntry),
});
export type RunRecord = z.infer<typeof RunRecord>;

const SiteHead = {
  schema: z.literal('skywatch.site-record/v1'),
  gsm: z.string(),
  date: z.string(),
  site: z.string(),
};
export const SiteRecord = z.discriminatedUnion('status', [
  z.object({
    ...SiteHead,
    status: z.literal('archived'),
    objects: z.array(ArchivedObjectEntry),
  }),
  z.object({
    ...SiteHead,
    status: z.literal('failed'),
    /** Why the last attempt failed (redacted). */
    reason: z.string(),
    /** Failed attempts recorded for this site and day. */
    attempts: z.number().check(z.int(), z.minimum(1)),
  }),
]);
export type SiteRecord = z.infer<typeof SiteRecord>;

const SITE_FILE = /\/site=([^/]+)\.json$/;

/** Reads and writes a day's records; every write is conditional and skipped when unchanged. */
export class DayRecords {
  constructor(private readonly state: StateStore) {}

  private prefix(gsm: string, day: string): string {
    return `report-fetcher/gsm=${gsm}/date=${day}/`;
  }

  private siteKey(gsm: string, day: string, site: string): string {
    return `${this.prefix(gsm, day)}site=${site}.json`;
  }

  async readRun(gsm: string, day: string): Promise<{ value: RunRecord; etag: string } | undefined> {
    return this.state.get(`${this.prefix(gsm, day)}run.json`, RunRecord);
  }

  /** Answers whether the record changed. */
  async writeRun(run: RunRecord): Promise<boolean> {
    return this.state.update(`${this.prefix(run.gsm, run.date)}run.json`, RunRecord, (current) =>
      current && sameJson(current, run) ? undefined : run,
    );
  }

  /** A site archived: replaces whatever was recorded. Answers whether the record changed. */
  async archived(task: SiteTask, objects: ArchivedObjectEntry[]): Promise<boolean> {
    const record: SiteRecord = {
      schema: 'skywatch.site-record/v1',
      gsm: task.gsm,
      date: task.day,
      site: task.site,
      status: 'archived',
      objects: objects.map(({ key, bytes, records, sha256 }) => ({ key, bytes, records, sha256 })),
    };
    return this.state.update(this.siteKey(task.gsm, task.day, task.site), SiteRecord, (current) =>
      current && sameJson(current, record) ? undefined : record,
    );
  }

  /**
   * A failed attempt at a site. It never replaces an archived record: a re-run that fails leaves
   * the reports archived earlier, so the site is not missing. Answers whether the record changed.
   */
  async failed(task: SiteTask, reason: string): Promise<boolean> {
    return this.state.update(this.siteKey(task.gsm, task.day, task.site), SiteRecord, (current) =>
      current?.status === 'archived'
        ? undefined
        : ({
            schema: 'skywatch.site-record/v1',
            gsm: task.gsm,
            date: task.day,
            site: task.site,
            status: 'failed',
            reason,
            attempts: (current?.attempts ?? 0) + 1,
          } satisfies SiteRecord),
    );
  }

  /** The sites that have a record, with the record's ETag (one LIST call per 1,000 sites). */
  async listSites(gsm: string, day: string): Promise<Map<string, string>> {
    const sites = new Map<string, string>();
    for await (const { key, etag } of this.state.list(`${this.prefix(gsm, day)}site=`)) {
      const site = SITE_FILE.exec(key)?.[1];
      if (site) sites.set(site, etag);
    }
    return sites;
  }

  /** Records of the given sites (absent ones left out), a few reads at a time. */
  async readSites(gsm: string, day: string, sites: string[]): Promise<Map<string, SiteRecord>> {
    const limit = pLimit(16);
    const found = new Map<string, SiteRecord>();
    await Promise.all(
      sites.map((site) =>
        limit(async () => {
          const record = await this.state.get(this.siteKey(gsm, day, site), SiteRecord);
          if (record) found.set(site, record.value);
        }),
      ),
    );
    return found;
  }
}
