import { DAY_MS, instantMs } from '../../lib/index.js';

/**
 * Blocked-URL spike rule: the latest full day must exceed both an absolute floor and a
 * multiple of the site's baseline, the median of the full days before it. A median ignores
 * one odd day in the baseline, which a mean would not.
 */

export interface SpikeThresholds {
  /** The latest day must have more than this many blocked actions. */
  minCount: number;
  /** …and more than this multiple of the baseline. */
  baselineMultiplier: number;
  /** Fewer baseline days than this and no verdict is given (a new site). */
  minBaselineDays: number;
}

export interface DayCount {
  /** ISO instant, 00:00 UTC of the day. */
  date: string;
  count: number;
}

export interface SpikeVerdict {
  day: string;
  count: number;
  baseline: number;
  baselineDays: number;
  /** count / baseline (Infinity for a zero baseline). */
  ratio: number;
  spike: boolean;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Days that are complete by `endDate` (the answer's EndDate), newest first. */
export function fullDays(counts: readonly DayCount[], endDate: string): DayCount[] {
  const end = instantMs(endDate);
  return counts
    .filter((c) => instantMs(c.date) + DAY_MS <= end)
    .sort((a, b) => instantMs(b.date) - instantMs(a.date));
}

/** The verdict on the latest full day, or undefined when there is not enough history. */
export function detectSpike(
  days: readonly DayCount[],
  t: SpikeThresholds,
): SpikeVerdict | undefined {
  const [latest, ...previous] = days;
  if (!latest || previous.length < t.minBaselineDays) return undefined;
  const baseline = median(previous.map((d) => d.count));
  const ratio =
    baseline === 0 ? (latest.count === 0 ? 0 : Number.POSITIVE_INFINITY) : latest.count / baseline;
  return {
    day: latest.date.slice(0, 10),
    count: latest.count,
    baseline,
    baselineDays: previous.length,
    ratio,
    spike: latest.count > t.minCount && latest.count > t.baselineMultiplier * baseline,
  };
}
