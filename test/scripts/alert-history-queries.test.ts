import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorArchive } from '../../scripts/local/archive-mirror.js';
import { type ArchiveDatabase, openArchive } from '../../scripts/query/archive-database.js';
import { type Destinations, startDestinations } from '../support/notifier-receivers.js';
import { type Product, startProduct } from '../support/product.js';
import { quietEndpoints } from '../support/quiet-endpoints.js';

const doc = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');

/** The statements of the `sql` blocks of the "Alert history" section, in order. */
function documented(): string[] {
  const start = doc.indexOf('## Alert history');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) =>
    (m[1] ?? '').trim().replace(/;$/, ''),
  );
}

/**
 * The documented alert queries on DuckDB, over a mirror of the history the real alerter and
 * notifier wrote to moto: two alerts opened, one of them resolved a minute later.
 */
let product: Product;
let to: Destinations;
let db: ArchiveDatabase;
const folder = join(tmpdir(), `skywatch-alert-history-${process.pid}`);
let open = '';
let closed = '';
let site = { key: '', name: '' };

beforeAll(async () => {
  product = await startProduct(
    {},
    { NOTIFY_BASE_DELAY_MS: '5', NOTIFY_MAX_DELAY_MS: '50', NOTIFY_ATTEMPT_TIMEOUT_MS: '2000' },
  );
  to = await startDestinations(product);
  site = product.emulator.info().gsms[0]?.sites[4] ?? site;
  await product.run('token-refresher');
  await product.run('infection-alerter');
  await to.notify();
  [open = '', closed = ''] = await quietEndpoints(product, site.key, { scan: 40 });
  for (const id of [open, closed]) product.emulator.endpointAction(id, 'infect', 'Ransom|Docs');
  product.emulator.advanceClock(60);
  await product.run('token-refresher');
  await product.run('infection-alerter');
  await to.notify();
  product.emulator.advanceClock(120);
  product.emulator.endpointAction(closed, 'clean');
  await product.run('token-refresher');
  await product.run('infection-alerter');
  await to.notify();
  await mirrorArchive(product.aws.clients.s3, product.res.bucket, folder, {
    prefixes: ['reports/alert-events/'],
  });
  db = await openArchive(folder);
}, 120_000);
afterAll(async () => {
  db?.close();
  await to?.close();
  await product?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('Docs: the alert history queries of docs/operations.md, on DuckDB', () => {
  const [openNow = '', perSite = '', toResolve = ''] = documented();

  it('documents three queries of alert_events', () => {
    expect(documented()).toHaveLength(3);
    for (const q of documented()) expect(q).toContain('FROM skywatch_archive.alert_events');
  });

  it('open alerts now: lists the alert still open, not the resolved one', async () => {
    const rows = await db.query(openNow);
    const ids = rows.map((r) => r.alertid);
    expect(ids).toContain(`infected/${open}`);
    expect(ids).not.toContain(`infected/${closed}`);
    expect(rows.find((r) => r.alertid === `infected/${open}`)).toMatchObject({
      site: site.key,
      sitename: site.name,
      kind: 'infected',
    });
  });

  it('alerts per site and kind: counts both triggers at the site', async () => {
    const rows = await db.query(perSite);
    const row = rows.find((r) => r.site === site.key && r.kind === 'infected');
    expect(Number(row?.alerts)).toBeGreaterThanOrEqual(2);
  });

  it('time to resolve per site: the resolved alert, open for at least two minutes', async () => {
    const rows = await db.query(toResolve);
    const row = rows.find((r) => r.site === site.key);
    expect(Number(row?.resolved)).toBeGreaterThanOrEqual(1);
    expect(Number(row?.mean_minutes)).toBeGreaterThanOrEqual(2);
    expect(Number(row?.p90_minutes)).toBeGreaterThanOrEqual(Number(row?.mean_minutes) - 0.1);
  });
});
