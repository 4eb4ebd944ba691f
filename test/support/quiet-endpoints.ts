import { SubjectRecord, subjectKey } from '../../functions/infection-alerter/health/records.js';
import { StateStore } from '../../lib/aws/index.js';
import type { Product } from './product.js';

/**
 * Endpoints of a site with no open alert, among the first `scan` of its endpoints: turning one
 * is its one transition (one with `attention-required` open would also resolve that, the new
 * problem naming it). At most `want` of them, leaving out `skip`.
 */
export async function quietEndpoints(
  product: Product,
  siteKey: string,
  options: { scan: number; want?: number; skip?: readonly string[] },
): Promise<string[]> {
  const state = new StateStore(product.aws.clients.s3, product.res.bucket);
  const out: string[] = [];
  for (const id of product.emulator.machineIds(siteKey, options.scan)) {
    if (options.skip?.includes(id)) continue;
    const record = await state.get(subjectKey(product.gsm, id), SubjectRecord);
    if (Object.values(record?.value.alerts ?? {}).some((a) => a?.open)) continue;
    out.push(id);
    if (out.length === options.want) break;
  }
  return out;
}
