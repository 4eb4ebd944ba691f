/** An object of the archive bucket as a listing gives it. */
export interface StoredObject {
  key: string;
  size: number;
}

/** Groups up to this many objects are listed key by key; larger ones a line per date. */
const LIST_UP_TO = 6;

export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const dateOf = (key: string) => /date=(\d{4}-\d{2}-\d{2})/.exec(key)?.[1] ?? '';

/** `reports/<dataset>/…` by dataset, `manifests/…` as one group; state/ is not the archive. */
function groupOf(key: string): { name: string; root: string } {
  const [top, dataset] = key.split('/');
  return top === 'reports' && dataset
    ? { name: dataset, root: `reports/${dataset}/` }
    : { name: top ?? key, root: `${top}/` };
}

/**
 * The `npm start` summary of what the run wrote: a line per dataset with its count, total size
 * and dates, then each object's key (below the dataset, without the GSM the header names) and
 * size; a dataset of many objects gets a line per date instead, so the screen stays readable.
 */
export function summariseArchive(objects: StoredObject[], bucket: string, gsm: string): string[] {
  const archived = objects.filter((o) => !o.key.startsWith('state/'));
  const state = objects.length - archived.length;
  const groups = new Map<string, { root: string; objects: StoredObject[] }>();
  for (const o of archived) {
    const { name, root } = groupOf(o.key);
    const group = groups.get(name) ?? { root, objects: [] };
    group.objects.push(o);
    groups.set(name, group);
  }
  const total = (os: StoredObject[]) => os.reduce((n, o) => n + o.size, 0);
  // The header names the GSM, so keys drop it: `gsm=G/` partitions go, `gsm=G.json` shortens.
  const short = (key: string, root: string) =>
    key.slice(root.length).replace(`gsm=${gsm}/`, '').replace(`gsm=${gsm}`, 'gsm=…');
  const lines = [`${plural(archived.length, 'object')} archived in s3://${bucket} (GSM ${gsm}):`];
  for (const [name, { root, objects: os }] of groups) {
    const dates = [...new Set(os.map((o) => dateOf(o.key)).filter(Boolean))].sort();
    const span = dates.length > 1 ? `${dates[0]} … ${dates.at(-1)}` : (dates[0] ?? '');
    lines.push(
      `  ${name.padEnd(14)} ${plural(os.length, 'object').padStart(11)} ${size(total(os)).padStart(10)}  ${span}`,
    );
    if (os.length <= LIST_UP_TO) {
      for (const o of os)
        lines.push(`      ${short(o.key, root).padEnd(58)} ${size(o.size).padStart(10)}`);
      continue;
    }
    for (const date of dates) {
      const day = os.filter((o) => dateOf(o.key) === date);
      const sizes = day.map((o) => o.size);
      const range = `${size(Math.min(...sizes))}–${size(Math.max(...sizes))} each`;
      lines.push(
        `      date=${date} ${plural(day.length, 'object').padStart(11)} ${size(total(day)).padStart(10)}  (${range})`,
      );
    }
  }
  if (state > 0)
    lines.push(
      `and ${plural(state, 'state record')} in state/ (cursors, claims, report day records)`,
    );
  return lines;
}
