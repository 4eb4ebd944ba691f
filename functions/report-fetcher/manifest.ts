import { manifestKey, type StateStore } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';
import { ArchivedObjectEntry, type DayJob } from './day-job.js';
import { sameJson } from './same-json.js';

const ManifestObject = z.extend(ArchivedObjectEntry, {
  /** The site a DNSP report or a site's snapshot belongs to. */
  site: z.optional(z.string()),
});
const SiteFailure = z.object({ site: z.string(), reason: z.string(), attempts: z.number() });
const WalkFailure = z.object({ walk: z.string(), reason: z.string(), attempts: z.number() });

/**
 * The manifest of a report day (`manifests/report-fetcher/date=<day>/gsm=<GSM>.json`): every
 * object the day's archive holds, which sites and snapshot walks are missing, and whether the
 * day is complete. It is written from the day's job once every task has ended, and holds no
 * clock readings, so the same job always gives the same bytes.
 */
export const Manifest = z.object({
  schema: z.literal('skywatch.manifest/v3'),
  gsm: z.string(),
  date: z.string(),
  snapshotDate: z.nullable(z.string()),
  /** True when every site's DNSP report and every snapshot walk is archived. */
  complete: z.boolean(),
  sites: z.object({
    expected: z.number(),
    archived: z.number(),
    /** Sites without an archived DNSP report. */
    missing: z.array(z.string()),
    /** The missing sites, with why their last attempt failed and how many attempts failed. */
    failed: z.array(SiteFailure),
  }),
  snapshots: z.object({
    /** Walks planned: two for the console, or two a site for a large console. */
    walks: z.number(),
    archived: z.number(),
    failed: z.array(WalkFailure),
  }),
  objects: z.array(ManifestObject),
});
export type Manifest = z.infer<typeof Manifest>;

const byKey = (a: { key: string }, b: { key: string }) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : 0;

/** The manifest of an ended job. */
export function buildManifest(job: DayJob): Manifest {
  const objects: Manifest['objects'] = [...job.reports];
  const archivedSites = new Set<string>();
  const failedSites: Manifest['sites']['failed'] = [];
  const walks = job.tasks.filter((t) => t.kind === 'walk');
  const failedWalks: Manifest['snapshots']['failed'] = [];
  for (const task of job.tasks) {
    if (task.status === 'done' && task.object) {
      objects.push(task.site === undefined ? task.object : { ...task.object, site: task.site });
      if (task.kind === 'site-report') archivedSites.add(task.site);
      continue;
    }
    const failure = { reason: task.reason ?? 'not attempted', attempts: task.attempts };
    if (task.kind === 'site-report') failedSites.push({ site: task.site, ...failure });
    else failedWalks.push({ walk: task.id, ...failure });
  }
  objects.sort(byKey);
  const missing = job.sites.filter((s) => !archivedSites.has(s));
  return {
    schema: 'skywatch.manifest/v3',
    gsm: job.gsm,
    date: job.date,
    snapshotDate: job.snapshotDate,
    complete: missing.length === 0 && failedWalks.length === 0,
    sites: {
      expected: job.sites.length,
      archived: job.sites.length - missing.length,
      missing,
      failed: failedSites.sort((a, b) => (a.site < b.site ? -1 : 1)),
    },
    snapshots: {
      walks: walks.length,
      archived: walks.length - failedWalks.length,
      failed: failedWalks.sort((a, b) => (a.walk < b.walk ? -1 : 1)),
    },
    objects,
  };
}

/** Writes a manifest unless the stored one is the same document (re-runs write nothing). */
export async function writeManifest(manifests: StateStore, manifest: Manifest): Promise<void> {
  const key = manifestKey(manifest.gsm, manifest.date);
  const current = await manifests.get(key, z.unknown());
  if (current && sameJson(current.value, manifest)) return;
  await manifests.put(key, manifest);
}

/**
 * The manifest of an ended job, written when absent or changed (lost, or from an older
 * version); re-runs of a finished day write nothing.
 */
export async function settleManifest(manifests: StateStore, job: DayJob): Promise<Manifest> {
  const manifest = buildManifest(job);
  await writeManifest(manifests, manifest);
  return manifest;
}
