import type { Dataset, Gsm, Site } from './dataset.js';
import { endpointFlags, endpointHash } from './endpoint-facts.js';
import type { EndpointChanges } from './endpoint-state.js';
import { between, hash, hash2 } from './random.js';
import { DAY_MS } from './time-format.js';

/**
 * Blocked-URL actions of one site on one day, attributed to its endpoints and split by what
 * each endpoint is *now*: the spec's includeDeactivated / includeHidden select "endpoints
 * currently deactivated / hidden", so hiding an endpoint moves its past actions out of the
 * default count.
 */
export interface DayCounts {
  active: number;
  deactivated: number;
  hidden: number;
  /** Endpoints both hidden and deactivated count only when both flags are set. */
  both: number;
}

/** Extra actions added through the admin API, keyed by `siteId|dayNumber`; always active. */
export type Spikes = Map<string, number>;

export function spikeKey(site: Site, day: number): string {
  return `${site.id}|${day}`;
}

/** An integer share of a fractional mean, rounded up or down by a hash so sums stay fair. */
function integerShare(mean: number, h: number): number {
  const whole = Math.floor(mean);
  return whole + ((h % 10_000) / 10_000 < mean - whole ? 1 : 0);
}

/** Offsets of the categories in the per-day sums. */
const ACTIVE = 0;
const HIDDEN = 1;
const DEACTIVATED = 2;
const BOTH = 3;

/** One day being counted: its figures so far and what every endpoint's share depends on. */
interface DayWork {
  day: number;
  /** Milliseconds of the day that count (the whole day, or up to endDate's time of day). */
  cutoff: number;
  whole: boolean;
  /** Mean actions per endpoint; each endpoint draws a weight of 0..2 around it. */
  mean: number;
  counts: DayCounts;
}

/**
 * The blocked-URL counts of one emulator. Whole days are cached until `invalidate`, which the
 * admin operations that change counts call (endpoint actions, enrolment, spikes); the clock does
 * not change a past day, and the partial day of endDate is never cached.
 */
export class BlockedUrlCounts {
  private readonly cache = new Map<string, DayCounts>();

  constructor(
    private readonly data: Dataset,
    private readonly changes: EndpointChanges,
    private readonly spikes: Spikes,
  ) {}

  invalidate(): void {
    this.cache.clear();
  }

  /**
   * Counts of a site for each of `days`, in that order, before `until` (the partial day of
   * endDate). Each action has its own time of day, so counts of the categories add up exactly
   * at any cut-off. The site's level is seed-chosen with a day-to-day wobble and shared among
   * its endpoints.
   */
  range(site: Site, days: readonly number[], until = Number.POSITIVE_INFINITY): DayCounts[] {
    const gsm = this.data.gsms[site.gsmIndex];
    const { seed } = this.data.shape;
    const size = gsm ? site.count + enrolledIn(gsm, site) : 0;
    const level = between(hash(seed, 0xb1, site.gsmIndex, site.localIndex), 20, 300);
    const work: DayWork[] = [];
    const result = days.map((day) => {
      const cutoff = Math.min(DAY_MS, until - day * DAY_MS);
      const whole = cutoff >= DAY_MS;
      const hit = whole ? this.cache.get(spikeKey(site, day)) : undefined;
      if (hit) return hit;
      const spike = this.spikes.get(spikeKey(site, day)) ?? 0;
      const wobble = 0.8 + (hash(seed, 0xb2, site.gsmIndex, site.localIndex, day) % 400) / 1000;
      // Spike actions are spread evenly over the day and always count as active.
      const counts = {
        active: Math.floor((spike * Math.max(0, cutoff)) / DAY_MS),
        deactivated: 0,
        hidden: 0,
        both: 0,
      };
      work.push({ day, cutoff, whole, mean: (level * wobble) / Math.max(1, size), counts });
      return counts;
    });
    if (work.length > 0 && gsm) this.attribute(gsm, site, work);
    for (const w of work) {
      if (!w.whole) continue;
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(spikeKey(site, w.day), w.counts);
    }
    return result;
  }

  /**
   * Adds every endpoint's actions on every day of `work` to its category. One pass over the
   * site for all days: the endpoint's hash and category are found once, not once per day, and
   * the sums run in a typed array (a day's four categories side by side) rather than objects.
   */
  private attribute(gsm: Gsm, site: Site, work: DayWork[]): void {
    const { seed, anchor } = this.data.shape;
    const n = work.length;
    const days = Int32Array.from(work, (w) => w.day);
    const means = Float64Array.from(work, (w) => w.mean);
    // A cut-off of a whole day or more needs no per-action time of day.
    const cutoffs = Float64Array.from(work, (w) => (w.whole ? -1 : w.cutoff));
    const sums = new Float64Array(n * 4);
    const add = (index: number, enrolled: boolean) => {
      const h = endpointHash(seed, gsm.index, index);
      const change = this.changes.get(gsm.index, index);
      let category = ACTIVE;
      // Only changed endpoints and the few generated hidden or deactivated need their flags.
      if (change !== undefined || (!enrolled && (h % 97 === 5 || h % 89 === 7))) {
        const flags = endpointFlags(h, anchor, enrolled, change);
        const deactivated = flags.deactivatedSince !== null;
        category = flags.hidden
          ? deactivated
            ? BOTH
            : HIDDEN
          : deactivated
            ? DEACTIVATED
            : ACTIVE;
      }
      for (let d = 0; d < n; d++) {
        const dayHash = hash2(h ^ (days[d] as number), 0xb10);
        // Weights 0..2 around the mean, so some endpoints are busier than others.
        const total = integerShare(
          ((means[d] as number) * (dayHash % 2000)) / 1000,
          hash2(dayHash, 1),
        );
        let actions = total;
        const cutoff = cutoffs[d] as number;
        if (cutoff >= 0) {
          actions = 0;
          for (let k = 0; k < total; k++)
            if (hash2(dayHash, 0x100 + k) % DAY_MS < cutoff) actions++;
        }
        const at = d * 4 + category;
        sums[at] = (sums[at] as number) + actions;
      }
    };
    for (let index = site.start; index < site.start + site.count; index++) add(index, false);
    for (let k = 0; k < gsm.enrolled.length; k++) {
      if (gsm.enrolled[k] === site.localIndex) add(gsm.baseCount + k, true);
    }
    work.forEach((w, d) => {
      w.counts.active += sums[d * 4 + ACTIVE] as number;
      w.counts.hidden += sums[d * 4 + HIDDEN] as number;
      w.counts.deactivated += sums[d * 4 + DEACTIVATED] as number;
      w.counts.both += sums[d * 4 + BOTH] as number;
    });
  }
}

/** Endpoints enrolled into a site through the admin API. */
function enrolledIn(gsm: Gsm, site: Site): number {
  let n = 0;
  for (const local of gsm.enrolled) if (local === site.localIndex) n++;
  return n;
}

/** Actions selected by the two include flags. */
export function selected(
  c: DayCounts,
  includeDeactivated: boolean,
  includeHidden: boolean,
): number {
  return (
    c.active +
    (includeDeactivated ? c.deactivated : 0) +
    (includeHidden ? c.hidden : 0) +
    (includeDeactivated && includeHidden ? c.both : 0)
  );
}
