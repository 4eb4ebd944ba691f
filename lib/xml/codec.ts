import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { SchemaError } from '../errors/errors.js';
import { parseResponse } from '../schemas/common.js';
import type * as z from '../zod.js';
import { describe } from './zod-walk.js';

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const NIL = '@_i:nil';

/** How one model is written in XML: root element and the item element of each array field. */
export interface XmlModel<S extends z.core.$ZodType = z.core.$ZodType> {
  root: string;
  schema: S;
  /** Array field name → element wrapping each item, e.g. `DatedCounts` → `…DatedCount`. */
  items: Record<string, string>;
}

// Built on the first XML call: no function speaks XML, and every one would otherwise build
// both at cold start.
let parser: XMLParser | undefined;
let builder: XMLBuilder | undefined;
const xmlParser = () =>
  (parser ??= new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    // Values stay text: their types come from the zod schema, never from guessing.
    parseTagValue: false,
    parseAttributeValue: false,
    // Read `<X i:nil/>` as well as `<X i:nil="true"/>`.
    allowBooleanAttributes: true,
    trimValues: false,
  }));
const xmlBuilder = () =>
  (builder ??= new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    suppressEmptyNode: true,
    suppressBooleanAttributes: false,
  }));

type Node = string | Record<string, unknown> | undefined;

function isNil(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  const v = (node as Record<string, unknown>)[NIL];
  return v === true || v === 'true';
}

function text(node: Node): string {
  if (typeof node === 'string') return node;
  if (node && typeof node === 'object' && typeof node['#text'] === 'string') return node['#text'];
  return '';
}

function plain(node: unknown): unknown {
  if (isNil(node)) return null;
  if (Array.isArray(node)) return node.map(plain);
  if (node && typeof node === 'object') {
    const entries = Object.entries(node).filter(([k]) => !k.startsWith('@_'));
    if (entries.length === 1 && entries[0]?.[0] === '#text') return entries[0][1];
    return Object.fromEntries(entries.map(([k, v]) => [k, plain(v)]));
  }
  return node;
}

function coerce(
  schema: z.core.$ZodType | undefined,
  node: Node,
  items: Record<string, string>,
  field = '',
): unknown {
  if (!schema) return plain(node);
  if (node === undefined) return undefined;
  const d = describe(schema);
  if (isNil(node)) return null;
  const value = text(node);
  switch (d.kind) {
    case 'object': {
      if (typeof node !== 'object') return d.nullable && value === '' ? null : {};
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) {
        if (k.startsWith('@_') || k === '#text') continue;
        out[k] = coerce(d.shape[k], v as Node, items, k);
      }
      return out;
    }
    case 'array': {
      if (typeof node !== 'object') return [];
      const itemName = items[field] ?? Object.keys(node).find((k) => !k.startsWith('@_'));
      const raw = itemName === undefined ? [] : node[itemName];
      const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
      return list.map((item) => coerce(d.element, item as Node, items));
    }
    case 'number': {
      if (value.trim() === '') return d.nullable ? null : value;
      const n = Number(value);
      return Number.isFinite(n) ? n : value;
    }
    case 'boolean': {
      const lower = value.trim().toLowerCase();
      if (lower === 'true' || lower === 'false') return lower === 'true';
      return d.nullable && lower === '' ? null : value;
    }
    default:
      return value;
  }
}

/**
 * Parses a DataContract-style XML body into a model validated by its zod schema.
 *
 * @example
 * const counts = parseXml(BLOCKED_URLS_XML, body);
 */
export function parseXml<S extends z.core.$ZodType>(model: XmlModel<S>, xml: string): z.output<S> {
  return parseResponse(model.schema, decodeXml(model, xml), model.root);
}

/**
 * A DataContract-style XML body as the plain value its JSON twin would be, values typed after
 * the model's schema but not validated: what the client's reader then reads, tolerantly or
 * strictly. Elements may come in any order (the service writes them alphabetically) and
 * namespace declarations are ignored.
 *
 * @example
 * const raw = decodeXml(BLOCKED_URLS_XML, body);
 */
export function decodeXml(model: XmlModel, xml: string): unknown {
  let doc: Record<string, unknown>;
  try {
    doc = xmlParser().parse(xml, { allowBooleanAttributes: true }) as Record<string, unknown>;
  } catch (error) {
    throw new SchemaError(`Response ${model.root} is not well-formed XML`, '(root)', {
      cause: error,
    });
  }
  const root = doc[model.root];
  if (root === undefined) {
    throw new SchemaError(`Response XML has no ${model.root} root element`, '(root)');
  }
  return coerce(model.schema, (root === '' ? {} : root) as Node, model.items);
}

function toNode(value: unknown, items: Record<string, string>, field = ''): unknown {
  if (value === null) return { [NIL]: 'true' };
  if (Array.isArray(value)) {
    return { [items[field] ?? 'item']: value.map((v) => toNode(v, items)) };
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toNode(v, items, k);
    return out;
  }
  return String(value);
}

/**
 * Writes a model as DataContract-style XML: root named after the model, array items wrapped in
 * their item element, null as `i:nil="true"` with `xmlns:i` declared on the root.
 *
 * @example
 * const body = buildXml(CART_REQUEST_XML, { Shipping: customer });
 */
export function buildXml(model: XmlModel, value: unknown): string {
  const body = toNode(value, model.items) as Record<string, unknown>;
  const doc = { [model.root]: { '@_xmlns:i': XSI, ...body } };
  return `<?xml version="1.0" encoding="utf-8"?>${xmlBuilder().build(doc) as string}`;
}

/**
 * Checks that a response body is well-formed XML and hands the text on; the transport treats a
 * throw as a body cut short or garbled (and retries a GET).
 *
 * @example
 * validateXml('<A><B>1</B></A>'); // '<A><B>1</B></A>'
 */
export function validateXml(text: string): string {
  const result = XMLValidator.validate(text, { allowBooleanAttributes: true });
  if (result !== true) throw new Error(result.err.msg);
  return text;
}

/**
 * What a client needs to speak the XML representation of 4.8, 4.9 and 4.10. The client takes it
 * as its `xml` option rather than importing it, so that code which only speaks JSON (all of the
 * Lambda functions) does not carry fast-xml-parser in its bundle and cold start.
 */
export interface XmlCodec {
  validate(text: string): string;
  parse<S extends z.core.$ZodType>(model: XmlModel<S>, xml: string): z.output<S>;
  decode(model: XmlModel, xml: string): unknown;
  build(model: XmlModel, value: unknown): string;
}

/**
 * @example
 * const client = new SkywatchClient({ baseUrl, authUrl, auth, xml: xmlCodec, format: 'xml' });
 */
export const xmlCodec: XmlCodec = {
  validate: validateXml,
  parse: parseXml,
  decode: decodeXml,
  build: buildXml,
};
