import { isDay, isMonth } from '../validation/day.js';

/**
 * Where the report builder writes: `pages/` beside the archive, out of the Athena tables'
 * `reports/` and the state's `state/`, one HTML page a GSM and report day and one CSV a GSM and
 * month.
 */
const safe = (value: string) => /^[A-Za-z0-9._-]+$/.test(value);

function checked(name: string, value: string, ok = safe): string {
  if (!ok(value)) throw new RangeError(`${name} is not a valid key part: ${value}`);
  return value;
}

export function dailyPageKey(gsm: string, day: string): string {
  return `pages/daily/gsm=${checked('gsm', gsm)}/date=${checked('day', day, isDay)}/report.html`;
}

/**
 * The newest daily page of a GSM, rewritten each time a newer day is built, so a reader that
 * does not know the newest day (the daily digest) can name it without listing `pages/`.
 */
export function latestPageKey(gsm: string): string {
  return `pages/daily/gsm=${checked('gsm', gsm)}/latest/report.html`;
}

/** Where an object is, for a person: its S3 URI and the S3 console page that opens it. */
export function objectLocation(bucket: string, key: string): { s3Uri: string; consoleUrl: string } {
  return {
    s3Uri: `s3://${bucket}/${key}`,
    consoleUrl: `https://console.aws.amazon.com/s3/object/${encodeURIComponent(bucket)}?prefix=${encodeURIComponent(key)}`,
  };
}

export function seatCsvKey(gsm: string, month: string): string {
  const m = checked('month', month, isMonth);
  return `pages/seats/gsm=${checked('gsm', gsm)}/month=${m}/seats-${m}.csv`;
}

/** The infected endpoints of one past status snapshot, kept so each snapshot is read once. */
export function infectedKey(gsm: string, date: string): string {
  return `pages/infected/gsm=${checked('gsm', gsm)}/date=${checked('date', date, isDay)}.json`;
}
