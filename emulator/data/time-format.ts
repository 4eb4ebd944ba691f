/**
 * Fast ISO 8601 rendering. A full 1,000-entry status page holds ~25,000 instants; building a
 * Date for each costs more than the rest of the page, so days are cached and times assembled.
 */

export const DAY_MS = 86_400_000;
const dayCache = new Map<number, string>();

function dayText(dayNumber: number): string {
  let text = dayCache.get(dayNumber);
  if (text === undefined) {
    text = new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
    if (dayCache.size > 100_000) dayCache.clear();
    dayCache.set(dayNumber, text);
  }
  return text;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

const instantCache = new Map<number, string>();

/**
 * `YYYY-MM-DDTHH:MM:SSZ` for a millisecond timestamp (seconds precision, UTC). Generated
 * instants fall on whole hours around the anchor, so a page repeats the same few thousand:
 * they are kept rather than assembled again.
 */
export function isoSeconds(ms: number): string {
  let text = instantCache.get(ms);
  if (text === undefined) {
    text = formatSeconds(ms);
    if (instantCache.size > 100_000) instantCache.clear();
    instantCache.set(ms, text);
  }
  return text;
}

function formatSeconds(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  const secondOfDay = Math.floor((ms - day * DAY_MS) / 1000);
  const h = Math.floor(secondOfDay / 3600);
  const m = Math.floor((secondOfDay % 3600) / 60);
  const s = secondOfDay % 60;
  return `${dayText(day)}T${two(h)}:${two(m)}:${two(s)}Z`;
}

/** `YYYY-MM-DD` of a millisecond timestamp (UTC). */
export function isoDate(ms: number): string {
  return dayText(Math.floor(ms / DAY_MS));
}

/** 00:00 UTC of the day holding `ms`. */
export function startOfDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}
