/** Weight of the newest sample in the fast average: a handful of answers move it. */
const FAST_WEIGHT = 0.2;
/** How quickly the baseline adopts a higher level: over many windows, not one. */
const BASELINE_DRIFT = 0.01;
/**
 * Samples a process ignores: the first answers of a fresh Lambda carry connection setup and the
 * token request, not the service's load, and would make a restored baseline look exceeded.
 */
const WARM_UP_SAMPLES = 5;
/** Samples averaged before the trend may call latency high, so one outlier cannot. */
const ARMED_AFTER = 5;

/**
 * Tells whether the service answers markedly slower than it usually does. A fast moving average
 * of attempt durations is compared with a baseline that follows the fast average down at once
 * (the quickest the service has been lately is what an unloaded service costs) and up only
 * slowly, so that a service that has become slower for good, whatever we do, becomes the new
 * normal instead of holding the limit at its minimum forever.
 *
 * @example
 * const trend = new LatencyTrend(2);
 * trend.add(120);
 * if (trend.rising()) shrink();
 */
export class LatencyTrend {
  private fast: number | undefined;
  private skipped = 0;
  private samples = 0;

  constructor(
    private readonly factor: number,
    /** A baseline learned by an earlier process, kept until this one has warmed up. */
    private base: number | null = null,
  ) {}

  /** The baseline in ms, or null before any was learned. */
  get baselineMs(): number | null {
    return this.base;
  }

  /** The fast average in ms, or null before the first sample. */
  get recentMs(): number | null {
    return this.fast ?? null;
  }

  add(durationMs: number): void {
    if (!Number.isFinite(durationMs) || durationMs < 0) return;
    if (this.skipped < WARM_UP_SAMPLES) {
      this.skipped++;
      return;
    }
    this.samples++;
    // Starting from a learned baseline keeps one early outlier from standing for the average.
    const from = this.fast ?? this.base ?? durationMs;
    this.fast = from + (durationMs - from) * FAST_WEIGHT;
    if (this.base === null || this.fast < this.base) this.base = this.fast;
    else this.base += (this.fast - this.base) * BASELINE_DRIFT;
  }

  /** True when, after warming up, recent answers take `factor` times the baseline or more. */
  rising(): boolean {
    if (this.samples < ARMED_AFTER || this.fast === undefined || this.base === null) return false;
    // A floor of one millisecond: a baseline of zero (a fake clock, a cached answer) would make
    // every later sample look infinitely slower.
    return this.fast > this.factor * Math.max(this.base, 1);
  }
}
