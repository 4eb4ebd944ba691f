import { ConflictError, manifestKey, type StateStore } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';
import {
  ArchivedObjectEntry,
  type DayRecords,
  type RunRecord,
  type SiteRecord,
} from './day-records.js';
import { sameJson } from './same-json.js';

const ManifestObject = z.extend(ArchivedObjectEntry, {
  /** Set on a site's DNSP report, so the manifest can be rebuilt one site at a time. */
  site: z.optional(z.string()),
});
const SiteFailure = z.object({ site: z.string(), reason: z.string(), attempts: z.number() });

/**
 * The manifest of a report day (`manifests/report-fetcher/date=<day>/gsm=<GSM>.json`): every
 * object the day's archive holds, which sites are missing, and whether the day is complete. It
 * is built from the day's records (day-records.ts) and holds no clock readings, so rebuilding it
 * from unchanged records gives the same bytes.
 */
export const Manifest = z.object({
  schema: z.literal('skywatch.manifest/v2'),
  gsm: z.string(),
  date: z.string(),
  snapshotDate: z.nullable(z.string()),
  /** True when every site of the sites report has its DNSP report archived. */
  complete: z.boolean(),
  sites: z.object({
    expected: z.number(),
    archived: z.number(),
    /** Sites without an archived DNSP report: still queued, or failed. */
    missing: z.array(z.string()),
    /** The missing sites whose last attempt failed, with why and how many attempts failed. */
    failed: z.array(SiteFailure),
  }),
  objects: z.array(ManifestObject),
  /** ETag of each site record the manifest was built from: a rebuild reads only changed ones. */
  recordEtags: z.record(z.string(), z.string()),
});
export type Manifest = z.infer<typeof Manifest>;

export interface ManifestDeps {
  records: DayRecords;
  /** Conditional writes of the manifest (a StateStore over the bucket root). */
  manifests: StateStore;
}

export type SiteState =
  | { status: 'archived'; objects: z.infer<typeof ManifestObject>[] }
  | { status: 'failed'; reason: string; attempts: number };

/** A site's part of the manifest, from its record. */
function fromRecord(record: SiteRecord): SiteState {
  return record.status === 'archived'
    ? { status: 'archived', objects: record.objects.map((o) => ({ ...o, site: record.site })) }
    : { status: 'failed', reason: record.reason, attempts: record.attempts };
}

/** A site's part of an earlier manifest, when it was built from the same record. */
function fromManifest(previous: Manifest, site: string): SiteState {
  const failure = previous.sites.failed.find((f) => f.site === site);
  if (failure) return { status: 'failed', reason: failure.reason, attempts: failure.attempts };
  return { status: 'archived', objects: previous.objects.filter((o) => o.site === site) };
}

/** The manifest of a run and its sites' states (sites without a state are missing). */
export function assembleManifest(
  run: RunRecord,
  states: Map<string, { state: SiteState; etag: string }>,
): Manifest {
  const objects: Manifest['objects'] = [...run.objects];
  const missing: string[] = [];
  const failed: Manifest['sites']['failed'] = [];
  const recordEtags: Record<string, string> = {};
  for (const site of run.sites) {
    const entry = states.get(site);
    if (entry) recordEtags[site] = entry.etag;
    if (entry?.state.status === 'archived') {
      objects.push(...entry.state.objects);
      continue;
    }
    missing.push(site);
    if (entry?.state.status === 'failed')
      failed.push({ site, reason: entry.state.reason, attempts: entry.state.attempts });
  }
  objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    schema: 'skywatch.manifest/v2',
    gsm: run.gsm,
    date: run.date,
    snapshotDate: run.snapshotDate,
    complete: missing.length === 0,
    sites: {
      expected: run.sites.length,
      archived: run.sites.length - missing.length,
      missing,
      failed,
    },
    objects,
    recordEtags,
  };
}

/**
 * A finalisation loses a race only to another that wrote, and each writes once, so with the
 * site workers' default maximum concurrency (5) and the fetcher beside them, 8 attempts always
 * suffice. Above that, one that gives up leaves the rebuild to the next (records are kept).
 */
const ATTEMPTS = 8;

/**
 * Builds a day's manifest from its records and writes it if it changed. The write is
 * conditional on the manifest read at the start, and a lost race starts over, so of two
 * finalisations running at once the later one includes what the earlier one saw: the last
 * manifest written reflects every record written before it. Site records whose ETag the
 * previous manifest already reflects are not read again, so a rebuild costs one LIST per 1,000
 * sites and one read per changed record. Answers undefined when the day has no run record.
 *
 * @param listing the day's site records as `listSites` answered, when the caller has it.
 */
export async function finaliseDay(
  deps: ManifestDeps,
  gsm: string,
  day: string,
  listing?: Map<string, string>,
): Promise<Manifest | undefined> {
  const key = manifestKey(gsm, day);
  let sites = listing;
  for (let attempt = 1; ; attempt++) {
    const current = await deps.manifests.get(key, z.unknown());
    const run = await deps.records.readRun(gsm, day);
    if (!run) return undefined;
    sites ??= await deps.records.listSites(gsm, day);
    const parsed = z.safeParse(Manifest, current?.value);
    const previous = parsed.success ? parsed.data : undefined;
    const states = new Map<string, { state: SiteState; etag: string }>();
    const toRead: string[] = [];
    for (const site of run.value.sites) {
      const etag = sites.get(site);
      if (etag === undefined) continue;
      if (previous && previous.recordEtags[site] === etag)
        states.set(site, { state: fromManifest(previous, site), etag });
      else toRead.push(site);
    }
    for (const [site, record] of await deps.records.readSites(gsm, day, toRead))
      states.set(site, { state: fromRecord(record), etag: sites.get(site) ?? '' });
    const manifest = assembleManifest(run.value, states);
    if (current && sameJson(current.value, manifest)) return manifest;
    try {
      await deps.manifests.put(
        key,
        manifest,
        current ? { ifMatch: current.etag } : { ifNoneMatch: true },
      );
      return manifest;
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= ATTEMPTS) throw error;
      sites = undefined;
    }
  }
}
