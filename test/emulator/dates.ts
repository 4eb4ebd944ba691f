/** UTC day arithmetic, and the 4.9 day rule written independently of the emulator. */

export const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of an instant in UTC. */
export function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function midnight(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** ISO instant without milliseconds. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The days 4.9 returns: first full day on or after startDate through the day of endDate (left
 * out when endDate is exactly 00:00 UTC), newest first.
 */
export function expectedDays(startMs: number, endMs: number): string[] {
  const first = startMs === midnight(startMs) ? startMs : midnight(startMs) + DAY_MS;
  const last = endMs === midnight(endMs) ? endMs - DAY_MS : midnight(endMs);
  const days: string[] = [];
  for (let d = last; d >= first; d -= DAY_MS) days.push(day(d));
  return days;
}
