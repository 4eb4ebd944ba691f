import { JSON_TYPE, type Reply, XML_TYPE } from '../http/respond.js';
import { fromXml, toXml } from '../http/xml.js';
import { wrapPaging } from './continuation.js';
import { type RealRendering, renderReal } from './render.js';

/** Item elements of the XML models (as the routes write them). */
const XML_ITEMS: Record<string, Record<string, string>> = {
  UsageReportSite_DNSP: { Sites: 'UsageReportSites_DNSP_SiteEntry' },
  GetBlockedURLsCountsResponse: { DatedCounts: 'GetBlockedURLsCountsResponseDatedCount' },
};

function text(body: string | Buffer): string {
  return typeof body === 'string' ? body : body.toString('utf8');
}

/**
 * A successful answer of the contract profile as the real profile sends it: JSON and XML
 * rendered per `renderReal`, XML in DataContract style, continuation tokens wrapped. Errors
 * are left as they are: their shape is another option's (the error style).
 *
 * @example
 * const sent = realReply(r.handle(ctx), { seed: 1, surpriseShare: 0.1 });
 */
export function realReply(reply: Reply, rendering: RealRendering): Reply {
  if (reply.status !== 200) return reply;
  if (reply.contentType === JSON_TYPE) {
    const value = renderReal(JSON.parse(text(reply.body)), rendering) as Record<string, unknown>;
    if ('ContinuationToken' in value) wrapPaging(value);
    return { ...reply, body: JSON.stringify(value) };
  }
  if (reply.contentType === XML_TYPE) {
    const { root, value } = fromXml(text(reply.body));
    const items = XML_ITEMS[root] ?? {};
    const plain = { ...(value as Record<string, unknown>) };
    // The item elements back out of their wrappers: arrays, as in the JSON twin.
    for (const [field, item] of Object.entries(items)) {
      const holder = plain[field];
      const list =
        holder && typeof holder === 'object' ? (holder as Record<string, unknown>)[item] : [];
      plain[field] = Array.isArray(list) ? list : list === undefined ? [] : [list];
    }
    const real = renderReal(plain, rendering) as object;
    return { ...reply, body: toXml(root, real, items, 'data-contract') };
  }
  return reply;
}
