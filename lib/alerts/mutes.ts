import * as z from '../zod.js';
import {
  type DocumentProblem,
  documentProblems,
  parseDocumentText,
  sameName,
} from './documents.js';
import { MutesDocumentError } from './errors.js';
import { type HealthAlert, HealthKind } from './model.js';

/**
 * Maintenance windows (docs/operations.md, "Maintenance windows"): while one matches an alert,
 * its trigger is recorded and not sent. Kept beside the routing document, in an SSM parameter
 * that the CLI (`npm run alerts -- mute`) writes and the alerter reads with a short cache.
 */
export const MUTES_SCHEMA = 'skywatch.mutes/v1';

const Text = z.string().check(z.minLength(1));
const Instant = z.iso.datetime({ offset: true });

/**
 * What a window matches: each field present must match (AND). `site` is a keycode or a site
 * name, compared without regard to case like routing's. At least one field: a window over
 * every alert would silence the whole console, which `mute` is not for.
 */
const WindowMatch = z
  .strictObject({
    gsm: z.optional(Text),
    site: z.optional(Text),
    machineId: z.optional(Text),
    kind: z.optional(HealthKind),
  })
  .check(
    z.refine(
      (m) => Object.values(m).some((v) => v !== undefined),
      'must name at least one of gsm, site, machineId and kind',
    ),
  );
export type WindowMatch = z.infer<typeof WindowMatch>;

const MaintenanceWindow = z
  .strictObject({
    id: z.string().check(z.regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be a-z, 0-9 and -')),
    match: WindowMatch,
    from: Instant,
    to: Instant,
    reason: Text,
    by: Text,
  })
  .check(
    z.superRefine((w, ctx) => {
      if (Date.parse(w.to) <= Date.parse(w.from))
        ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from', input: w.to });
    }),
  );
export type MaintenanceWindow = z.infer<typeof MaintenanceWindow>;

/** Window ids are unique: `unmute <id>` removes exactly one. */
function uniqueIds(doc: unknown, ctx: z.core.$RefinementCtx<unknown>) {
  const windows = (doc as { windows?: unknown } | null)?.windows;
  if (!Array.isArray(windows)) return;
  const seen = new Map<string, number>();
  windows.forEach((w: unknown, i) => {
    const id = (w as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') return;
    const first = seen.get(id);
    if (first !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['windows', i, 'id'],
        message: `repeats windows[${first}]`,
      });
    else seen.set(id, i);
  });
}

export const MutesDocument = z
  .strictObject({
    schema: z.literal(MUTES_SCHEMA),
    windows: z._default(z.array(MaintenanceWindow), []),
  })
  .check(z.superRefine(uniqueIds, { when: () => true }));
export type MutesDocument = z.infer<typeof MutesDocument>;

/** No window: what the alerter uses when the document cannot be read (send everything). */
export const NO_MUTES: MutesDocument = { schema: MUTES_SCHEMA, windows: [] };

/** Every problem of a windows document, each with its path; none when it is valid. */
export const mutesProblems = (value: unknown): DocumentProblem[] =>
  documentProblems(MutesDocument, value);

/**
 * A windows document from its JSON text; throws MutesDocumentError listing every problem.
 *
 * @example
 * const doc = parseMutesText(parameterValue);
 */
export const parseMutesText = (text: string): MutesDocument =>
  parseDocumentText(
    MutesDocument,
    text,
    (problems, cause) => new MutesDocumentError(problems, { cause }),
  );

/**
 * A window is active from `from` (included) to `to` (excluded): at `to` it has ended, so two
 * windows back to back hold without a gap and without an overlap.
 */
export function windowActive(window: Pick<MaintenanceWindow, 'from' | 'to'>, now: number) {
  return Date.parse(window.from) <= now && now < Date.parse(window.to);
}

/** The alert's fields a window reads. */
export type MutedAlert = Pick<HealthAlert, 'gsm' | 'site' | 'siteName' | 'machineId' | 'kind'>;

export function windowMatches(match: WindowMatch, alert: MutedAlert): boolean {
  return (
    (match.gsm === undefined || sameName(match.gsm, alert.gsm)) &&
    (match.site === undefined ||
      sameName(match.site, alert.site) ||
      sameName(match.site, alert.siteName)) &&
    (match.machineId === undefined || sameName(match.machineId, alert.machineId)) &&
    (match.kind === undefined || match.kind === alert.kind)
  );
}

/**
 * The first window active at `now` that matches the alert; undefined when none holds it.
 *
 * @example
 * holdingWindow(doc, alert, Date.now())?.reason // 'Re-imaging the front desk'
 */
export function holdingWindow(
  doc: MutesDocument,
  alert: MutedAlert,
  now: number,
): MaintenanceWindow | undefined {
  return doc.windows.find((w) => windowActive(w, now) && windowMatches(w.match, alert));
}
