import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { daysFrom } from '../../lib/index.js';
import { mirrorArchive } from '../../scripts/local/archive-mirror.js';
import { type Product, startProduct } from './product.js';

export interface ArchivedProduct {
  product: Product;
  /** The bucket copied as `npm start` copies it. */
  folder: string;
  /** MachineIDs infected through the emulator before the 2026-06-14 snapshot. */
  infected: string[];
}

/**
 * The archive the way `npm start` makes it (the real report fetcher over the emulator, into
 * moto, then copied to a folder), on a fixed timeline that matches the dates the docs' queries
 * name: status snapshots of 2026-06-14 and 2026-06-16, reports of every day from
 * `backfillFrom` to 2026-06-14 (daily runs, plus a backfill of the earlier days).
 */
export async function startArchivedProduct(backfillFrom = '2026-06-05'): Promise<ArchivedProduct> {
  const product = await startProduct({ now: '2026-06-14T12:00:00Z', reportRetentionDays: 120 });
  const gsm = product.emulator.info().gsms[0];
  const infected = (gsm?.sites ?? [])
    .slice(0, 2)
    .flatMap((s) => product.emulator.machineIds(s.key, 2));
  for (const id of infected) product.emulator.endpointAction(id, 'infect', 'Trojan|Win32|Docs');
  await product.run('token-refresher');
  await product.run('report-fetcher');
  product.emulator.advanceClock(2 * 86_400);
  await product.run('token-refresher');
  await product.run('report-fetcher');
  const backfill = daysFrom(backfillFrom, '2026-06-08');
  if (backfill.length > 0) await product.run('report-fetcher', { dates: backfill });
  const folder = await mkdtemp(join(tmpdir(), 'skywatch-archive-'));
  await mirrorArchive(product.aws.clients.s3, product.res.bucket, folder);
  return { product, folder, infected };
}
