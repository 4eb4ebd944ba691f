import { XMLBuilder, XMLParser } from 'fast-xml-parser';

/**
 * The XML representation of 4.8, 4.9 and 4.10 in DataContract style: elements named as the
 * JSON fields, the model name as root, array items wrapped in an element named after the item
 * model, and `i:nil="true"` for null.
 */

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // `i:nil="true"` must keep its value, and empty elements read best self-closed.
  suppressBooleanAttributes: false,
  suppressEmptyNode: true,
});
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  // Leaf text is kept as sent (JSON keeps it too); whitespace between elements is ignored.
  trimValues: false,
  // A lone child must still read as a list where the model has a list.
  jPath: true,
  isArray: (_name, path) => /\.(Sites|DatedCounts)\.[^.]+$/.test(String(path)),
});

/**
 * Default namespaces of the real profile's DataContract XML. The SkyStatus one is the
 * service's (real-service.md); the others follow its pattern (an inference, see
 * docs/service-choices.md "XML").
 */
const DATA_CONTRACT_NS =
  'http://schemas.datacontract.org/2004/07/Webroot.UnityAPI.ServiceExtension';
const NAMESPACES: Record<string, string> = {
  UsageReportSite_DNSP: `${DATA_CONTRACT_NS}.SkyStatus.Models`,
  GetBlockedURLsCountsResponse: `${DATA_CONTRACT_NS}.Console.Models`,
  AddCustomersToCartResponseServiceModel: `${DATA_CONTRACT_NS}.ECom.Models`,
};

/** How XML is written: the contract's (JSON order, `xmlns:i` only) or .NET DataContract's. */
export type XmlStyle = 'contract' | 'data-contract';

function encode(value: unknown, itemNames: Record<string, string>, sorted: boolean): unknown {
  if (value === null || value === undefined) return { '@_i:nil': 'true' };
  if (typeof value !== 'object') return String(value);
  const out: Record<string, unknown> = {};
  const entries = Object.entries(value);
  // DataContractSerializer writes members in ordinal order of their names.
  if (sorted) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, child] of entries) {
    if (Array.isArray(child)) {
      const itemName = itemNames[key] ?? key;
      out[key] =
        child.length === 0 ? '' : { [itemName]: child.map((c) => encode(c, itemNames, sorted)) };
    } else {
      out[key] = encode(child, itemNames, sorted);
    }
  }
  return out;
}

/**
 * Renders `model` as XML under `root`, wrapping array items per `itemNames` (field → item
 * model). The `data-contract` style (the real profile) writes elements in alphabetical order
 * and declares the model's default namespace beside `xmlns:i`.
 */
export function toXml(
  root: string,
  model: object,
  itemNames: Record<string, string> = {},
  style: XmlStyle = 'contract',
): string {
  const sorted = style === 'data-contract';
  const body = encode(model, itemNames, sorted) as Record<string, unknown>;
  const ns = sorted && NAMESPACES[root] ? { '@_xmlns': NAMESPACES[root] } : {};
  return `<?xml version="1.0" encoding="utf-8"?>${builder.build({ [root]: { ...ns, '@_xmlns:i': XSI, ...body } })}`;
}

/** Plain values of a parsed element: nil → null, text → string, elements → objects. */
function decode(node: unknown): unknown {
  if (node === null || typeof node !== 'object') return node ?? '';
  if (Array.isArray(node)) return node.map(decode);
  const entries = Object.entries(node as Record<string, unknown>);
  if (entries.some(([k, v]) => k.startsWith('@_') && k.endsWith(':nil') && v === 'true'))
    return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) if (!k.startsWith('@_') && k !== '#text') out[k] = decode(v);
  return out;
}

/** Parses an XML document; answers the root element's name and its decoded content. */
export function fromXml(text: string): { root: string; value: unknown } {
  const doc = parser.parse(text, true) as Record<string, unknown>;
  const root = Object.keys(doc).find((k) => !k.startsWith('?'));
  if (root === undefined) throw new SyntaxError('the XML document has no root element');
  return { root, value: decode(doc[root]) };
}
