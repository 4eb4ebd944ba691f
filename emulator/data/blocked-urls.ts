import type { Site } from './dataset.js';
import { between, hash } from './random.js';
import { DAY_MS } from './time-format.js';

/** Blocked-URL actions of one site on one day, split by the kind of endpoint that made them. */
export interface DayCounts {
  active: number;
  deactivated: number;
  hidden: number;
}

/** Extra actions added through the admin API, keyed by `siteId|dayNumber`. */
export type Spikes = Map<string, number>;

export function spikeKey(site: Site, day: number): string {
  return `${site.id}|${day}`;
}

/** Whole-day counts: a steady, seed-chosen level per site with a day-to-day wobble. */
export function dayCounts(seed: number, site: Site, day: number, spikes: Spikes): DayCounts {
  const level = between(hash(seed, 0xb1, site.gsmIndex, site.localIndex), 20, 300);
  const h = hash(seed, 0xb2, site.gsmIndex, site.localIndex, day);
  const wobble = 0.8 + (h % 400) / 1000;
  return {
    active: Math.round(level * wobble) + (spikes.get(spikeKey(site, day)) ?? 0),
    deactivated: h % 5,
    hidden: (h >>> 4) % 4,
  };
}

/**
 * Actions of a day recorded before `until` (ms). Actions are spread evenly over the day, so
 * a partial day counts the elapsed share, which is what 4.9 asks for the day of endDate.
 */
export function countUntil(total: number, day: number, until: number): number {
  const elapsed = Math.min(1, Math.max(0, (until - day * DAY_MS) / DAY_MS));
  return Math.floor(total * elapsed);
}
