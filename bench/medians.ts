import type { ArchiveRun } from './archive-results.js';

/**
 * The middle value (the lower of the two middle ones for an even count); NaN when empty. Walks
 * repeated in a run are summarised by medians: one walk's time swings with the shared machine.
 */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

/** The runs of `mode` in `runs`. */
export function runsOf(runs: ArchiveRun[] | undefined, mode: ArchiveRun['mode']): ArchiveRun[] {
  return (runs ?? []).filter((run) => run.mode === mode);
}

/** The run of `mode` whose wall time is the median, as the one to show in full. */
export function medianRun(
  runs: ArchiveRun[] | undefined,
  mode: ArchiveRun['mode'],
): ArchiveRun | undefined {
  const wall = medianOf(runs, mode, (run) => run.wallMs);
  return runsOf(runs, mode).find((run) => run.wallMs === wall);
}

/** The median of `pick` over the runs of `mode`. */
export function medianOf(
  runs: ArchiveRun[] | undefined,
  mode: ArchiveRun['mode'],
  pick: (run: ArchiveRun) => number,
): number {
  return median(runsOf(runs, mode).map(pick));
}
