import { utcInstant } from '../validation/dates.js';
import * as z from '../zod.js';
import { DateTime, formatPath } from './common.js';

/**
 * A service instant a function needs, delivered normalised (UTC, milliseconds, `Z`, see
 * `utcInstant`) whatever rendering the service used, and refused when the date does not exist.
 */
export const UtcInstant = z.pipe(
  DateTime,
  z.transform((text: string, ctx) => {
    try {
      return utcInstant(text);
    } catch {
      ctx.issues.push({ code: 'custom', message: 'must be an existing instant', input: text });
      return z.NEVER;
    }
  }),
);

/** What `pickNeeded` answers. */
export type Needed<T> = { ok: true; value: T } | { ok: false; missing: string[] };

/**
 * The fields a function truly needs from an entry the tolerant reader delivered, validated and
 * typed by `needs` (a small schema of just those fields; use `UtcInstant` for instants), or the
 * paths of those that are absent or unusable, for the caller to skip the entry and count it.
 * Paths only, never values.
 *
 * @example
 * const InfectionNeeds = z.object({ MachineID: z.string(), LastChanged: UtcInstant });
 * const needed = pickNeeded(entry, InfectionNeeds);
 * if (!needed.ok) return skip(needed.missing);
 */
export function pickNeeded<S extends z.core.$ZodType>(
  value: unknown,
  needs: S,
): Needed<z.output<S>> {
  const result = z.safeParse(needs, value);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    missing: [...new Set(result.error.issues.map((i) => formatPath(i.path as PropertyKey[])))],
  };
}

const Text = z.string().check(z.minLength(1));

/**
 * What an alerter needs of an agent status entry (4.1/4.3, with BasicInfo): which endpoint,
 * where, when it changed, and whether it is infected. Without `BasicInfo.Infected` an entry
 * cannot be told infected or clean, and reading it as clean would close an open infection.
 */
export const AlertableEndpoint = z.object({
  MachineID: Text,
  KC: Text,
  LastChanged: UtcInstant,
  BasicInfo: z.object({ Infected: z.boolean() }),
});

/** What a site of a sites report (4.6) must carry to be worked on: its key and its id. */
export const SiteIdentity = z.object({ SiteKey: Text, SiteId: Text });

/** The day a report (4.5, 4.6) is about. */
export const ReportDay = z.object({ ReportInfo: z.object({ EffectiveDate: UtcInstant }) });

/** A day of blocked-URL counts (4.9) a spike rule can use. */
export const CountedDay = z.object({ Date: UtcInstant, Count: z.number().check(z.int()) });

/** The end of a blocked-URL window (4.9), which tells full days from the current one. */
export const CountsWindowEnd = z.object({ EndDate: UtcInstant });
