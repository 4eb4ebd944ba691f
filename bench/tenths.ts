/**
 * The largest of timed samples in each tenth of a run: whether memory levels off or keeps
 * climbing shows in one line. A tenth that no sample fell in (a run shorter than ten sampling
 * intervals) is null.
 */
export function maxByTenth(
  samples: readonly { atMs: number; value: number }[],
  durationMs: number,
): (number | null)[] {
  const tenths: (number | null)[] = Array.from({ length: 10 }, () => null);
  for (const { atMs, value } of samples) {
    if (atMs < 0 || atMs > durationMs) continue;
    const i = Math.min(9, Math.floor((10 * atMs) / durationMs));
    tenths[i] = Math.max(tenths[i] ?? value, value);
  }
  return tenths;
}
