/**
 * Where the report builder writes: `pages/` beside the archive, out of the Athena tables'
 * `reports/` and the state's `state/`, one HTML page a GSM and report day and one CSV a GSM and
 * month.
 */
const SAFE = /^[A-Za-z0-9._-]+$/;

function checked(name: string, value: string, pattern: RegExp = SAFE): string {
  if (!pattern.test(value)) throw new RangeError(`${name} is not a valid key part: ${value}`);
  return value;
}

export function dailyPageKey(gsm: string, day: string): string {
  return `pages/daily/gsm=${checked('gsm', gsm)}/date=${checked('day', day, /^\d{4}-\d{2}-\d{2}$/)}/report.html`;
}

export function seatCsvKey(gsm: string, month: string): string {
  const m = checked('month', month, /^\d{4}-\d{2}$/);
  return `pages/seats/gsm=${checked('gsm', gsm)}/month=${m}/seats-${m}.csv`;
}

/** The infected endpoints of one past status snapshot, kept so each snapshot is read once. */
export function infectedKey(gsm: string, date: string): string {
  return `pages/infected/gsm=${checked('gsm', gsm)}/date=${checked('date', date, /^\d{4}-\d{2}-\d{2}$/)}.json`;
}
