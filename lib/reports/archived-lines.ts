import { UtcInstant } from '../schemas/needs.js';
import * as z from '../zod.js';

/**
 * What the reports read of the archive's lines. The archive keeps the service's own text, so a
 * line can carry whatever the service sent: nulls, blanks, an instant without a zone, a field
 * missing. Each schema names the few fields a report cannot do without (a line lacking one is
 * skipped and counted, never a failed page) and gives every other field a neutral fallback;
 * instants come out normalised (UTC, `Z`), so nothing here parses a service date itself.
 */
const Key = z.string().check(z.minLength(1));
const count = z.catch(z.number().check(z.int(), z.nonnegative()), 0);
const text = z.catch(z.string(), '');
const instant = z.catch(z.nullable(UtcInstant), null);

/** A site of an archived sites report (4.6): its key and endpoint count are needed. */
export const SiteUsageLine = z.object({
  Site: z.object({
    SiteKey: Key,
    TotalEndpoints: z.number().check(z.int(), z.nonnegative()),
    SiteId: text,
    SiteName: text,
    LicenseType: text,
    ExpiryDate: instant,
  }),
});

/** An archived GSM report (4.5): the two endpoint totals are needed for the trend. */
export const GsmUsageLine = z.object({
  GSM: z.object({
    TotalEndpointsWithoutTrial: z.number().check(z.int(), z.nonnegative()),
    TotalTrialEndpoints: z.number().check(z.int(), z.nonnegative()),
    GSMConsoleName: z.catch(z.nullable(z.string()), null),
    ExpiryDate: instant,
  }),
});

/** The sites of an archived DNSP report (4.8); a site without its key is left out. */
export const DnspUsageLine = z.object({
  Sites: z.catch(
    z.array(
      z.catch(
        z.nullable(
          z.object({
            SiteKey: Key,
            DNSPEnabled: z.catch(z.boolean(), false),
            TotalDNSPAgents: count,
          }),
        ),
        null,
      ),
    ),
    [],
  ),
});

/** An endpoint of an archived status snapshot (4.3): which endpoint, and whether infected. */
export const StatusLine = z.object({
  MachineID: Key,
  KC: text,
  BasicInfo: z.object({ Infected: z.boolean() }),
});

/** The lines a schema can use, and how many it could not. */
export interface UsableLines<T> {
  lines: T[];
  skipped: number;
}

/**
 * Each line read through `schema`; a line lacking what the schema needs is skipped and counted.
 *
 * @example
 * const { lines, skipped } = usableLines(await reader.records(key), SiteUsageLine);
 */
export function usableLines<S extends z.core.$ZodType>(
  raw: readonly unknown[] | undefined,
  schema: S,
): UsableLines<z.output<S>> {
  const lines: z.output<S>[] = [];
  let skipped = 0;
  for (const line of raw ?? []) {
    const parsed = z.safeParse(schema, line);
    if (parsed.success) lines.push(parsed.data);
    else skipped++;
  }
  return { lines, skipped };
}

/** One line read through `schema`, or undefined when it lacks what the schema needs. */
export function usableLine<S extends z.core.$ZodType>(
  line: unknown,
  schema: S,
): z.output<S> | undefined {
  const parsed = z.safeParse(schema, line);
  return parsed.success ? parsed.data : undefined;
}
