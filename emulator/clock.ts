/**
 * The emulator's clock. Frozen at a given instant (tests, benchmarks) or following real time;
 * either way the admin API can move it forward to expire tokens or age data.
 */
export class Clock {
  private offset = 0;

  constructor(private readonly frozenAt: number | undefined) {}

  now(): number {
    return (this.frozenAt ?? Date.now()) + this.offset;
  }

  advance(seconds: number): number {
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new RangeError('the clock only moves forward: advanceSeconds must be ≥ 0');
    }
    this.offset += seconds * 1000;
    return this.now();
  }
}
