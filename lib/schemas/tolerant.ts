import { SchemaError } from '../errors/errors.js';
import * as z from '../zod.js';
import { formatPath } from './common.js';

/**
 * The tolerant reader: what the service sends is read against the contract's schema, and a
 * field that breaks it (null where a value was promised, a blank, an unexpected type, an
 * unknown rendering, a field nobody documented) is a *surprise*: counted, named by its path and
 * the rule it broke, and never the reason a page or a report is lost. The value is delivered
 * without the broken fields (the service's own text stays available to whoever archives it);
 * strict mode, for our own conformance tests, turns the first surprise into a SchemaError.
 */

/** The rule a surprising field broke. */
export type SurpriseRule =
  /** A field the contract does not name. Kept in the value. */
  | 'unknown-field'
  /** `null` where the contract promises a value. */
  | 'null'
  /** An empty or blank string where the contract promises a date, number or boolean. */
  | 'blank'
  /** A field the contract requires is absent. */
  | 'missing'
  /** A value of another JSON type (a string for a boolean, an object for a number…). */
  | 'type'
  /** Text that is not in any rendering the field allows (a date nobody writes like that). */
  | 'format'
  /** Anything else the schema refused (a fraction where a whole number was promised…). */
  | 'invalid';

/** One surprising field of one answer. Never carries the field's value. */
export interface Surprise {
  /** Where, as people read JSON: `QueryResults[3].BasicInfo.Infected`. */
  at: string;
  /** The same without array indexes, for counting: `QueryResults.BasicInfo.Infected`. */
  path: string;
  rule: SurpriseRule;
}

/** What a reader answers: the value (broken fields left out) and what surprised it. */
export interface Read<T> {
  value: T;
  surprises: Surprise[];
}

/**
 * A parsed answer as the tolerant reader delivers it: every field may be absent, because any
 * field of any entry may have been null, blank or of another type. A function states which
 * fields it truly needs with `pickNeeded` (lib/schemas/needs.ts) and skips entries without them.
 */
export type Tolerant<T> = T extends readonly (infer E)[]
  ? Tolerant<E>[]
  : T extends object
    ? { [K in keyof T]?: Tolerant<T[K]> }
    : T;

interface Def {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  element?: z.core.$ZodType;
  innerType?: z.core.$ZodType;
  getter?: () => z.core.$ZodType;
}
const defOf = (s: z.core.$ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

type Twin = (s: z.core.$ZodType) => z.core.$ZodType;

/** Rebuilds a schema tree, objects and arrays through `object`, wrappers kept, leaves as they are. */
function rebuild(
  schema: z.core.$ZodType,
  object: (shape: Record<string, z.core.$ZodType>) => z.core.$ZodType,
  field: (s: z.core.$ZodType) => z.core.$ZodType,
  self: Twin,
): z.core.$ZodType {
  const d = defOf(schema);
  if (d.type === 'lazy' && d.getter) return self(d.getter());
  if (d.type === 'object' && d.shape) {
    const shape: Record<string, z.core.$ZodType> = {};
    for (const [k, v] of Object.entries(d.shape)) shape[k] = field(self(v));
    return object(shape);
  }
  if (d.type === 'array' && d.element) return z.array(self(d.element));
  if (d.type === 'optional' && d.innerType) return z.optional(self(d.innerType));
  if (d.type === 'nullable' && d.innerType) return z.nullable(self(d.innerType));
  return schema;
}

function cached(make: (s: z.core.$ZodType, self: Twin) => z.core.$ZodType): Twin {
  const cache = new WeakMap<z.core.$ZodType, z.core.$ZodType>();
  const self: Twin = (s) => {
    let twin = cache.get(s);
    if (!twin) {
      twin = make(s, self);
      cache.set(s, twin);
    }
    return twin;
  };
  return self;
}

/** Where unknown fields can be: the objects of a schema tree, with their known keys. */
type Layout =
  | { kind: 'object'; fields: Map<string, Layout> }
  | { kind: 'array'; element: Layout }
  | { kind: 'leaf' };

const layouts = new WeakMap<z.core.$ZodType, Layout>();
function layoutOf(schema: z.core.$ZodType): Layout {
  let layout = layouts.get(schema);
  if (layout) return layout;
  const d = defOf(schema);
  if (d.type === 'lazy' && d.getter) layout = layoutOf(d.getter());
  else if ((d.type === 'optional' || d.type === 'nullable') && d.innerType)
    layout = layoutOf(d.innerType);
  else if (d.type === 'array' && d.element)
    layout = { kind: 'array', element: layoutOf(d.element) };
  else if (d.type === 'object' && d.shape) {
    const fields = new Map<string, Layout>();
    layout = { kind: 'object', fields };
    layouts.set(schema, layout);
    for (const [k, v] of Object.entries(d.shape)) fields.set(k, layoutOf(v));
  } else layout = { kind: 'leaf' };
  layouts.set(schema, layout);
  return layout;
}

/** Fields of `value` its schema does not name, depth first (the schema keeps them). */
function unknownFields(layout: Layout, value: unknown, path: PropertyKey[], out: Surprise[]) {
  if (layout.kind === 'leaf' || value === null || typeof value !== 'object') return;
  if (layout.kind === 'array') {
    if (!Array.isArray(value)) return;
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      unknownFields(layout.element, value[i], path, out);
      path.pop();
    }
    return;
  }
  for (const key in value) {
    const field = layout.fields.get(key);
    path.push(key);
    if (field) unknownFields(field, (value as Record<string, unknown>)[key], path, out);
    else out.push({ at: formatPath(path), path: countingPath(path), rule: 'unknown-field' });
    path.pop();
  }
}
/** The schema with every field optional: what a broken answer is read with once repaired. */
const lenientTwin = cached((s, self) =>
  rebuild(
    s,
    (shape) => z.looseObject(shape),
    (f) => (defOf(f).type === 'optional' ? f : z.optional(f)),
    self,
  ),
);

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

function ruleOf(issue: z.core.$ZodIssue, value: unknown): SurpriseRule {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (typeof value === 'string' && value.trim() === '') return 'blank';
  if (issue.code === 'invalid_type' || issue.code === 'invalid_union') return 'type';
  if (issue.code === 'invalid_format') return 'format';
  return 'invalid';
}

const countingPath = (path: readonly PropertyKey[]) =>
  formatPath(path.filter((p) => typeof p !== 'number'));

/** A copy of `root` without the values at `paths` (an array element becomes `{}`). */
function without(root: unknown, paths: readonly PropertyKey[][]): unknown {
  if (paths.some((p) => p.length === 0)) return {};
  const copy = (node: unknown): unknown =>
    Array.isArray(node) ? [...node] : node && typeof node === 'object' ? { ...node } : node;
  const out = copy(root);
  for (const path of paths) {
    let node = out as Record<PropertyKey, unknown>;
    for (let i = 0; i < path.length - 1; i++) {
      const key = path[i] as PropertyKey;
      const child = node[key];
      if (child === null || typeof child !== 'object') break;
      node[key] = copy(child);
      node = node[key] as Record<PropertyKey, unknown>;
    }
    const last = path[path.length - 1] as PropertyKey;
    if (Array.isArray(node) && typeof last === 'number') node[last] = {};
    else delete node[last];
  }
  return out;
}

interface ReadState {
  model: string;
  strict: boolean;
  surprises: Surprise[];
}

/**
 * One value read: parsed, or, when it breaks its schema, its surprises recorded (at `prefix`
 * within the answer) and the value read again without the broken fields.
 */
function readValue(schema: z.core.$ZodType, raw: unknown, prefix: PropertyKey[], st: ReadState) {
  const first = z.safeParse(schema, raw);
  if (first.success) return first.data;
  const issues = first.error.issues;
  const at = (path: readonly PropertyKey[]) => [...prefix, ...path];
  if (st.strict && issues[0]) {
    const path = formatPath(at(issues[0].path as PropertyKey[]));
    throw new SchemaError(
      `Response ${st.model} breaks its schema at ${path}: ${issues[0].message}`,
      path,
      { cause: first.error },
    );
  }
  for (const issue of issues) {
    const path = issue.path as PropertyKey[];
    st.surprises.push({
      at: formatPath(at(path)),
      path: countingPath(at(path)),
      rule: ruleOf(issue, valueAt(raw, path)),
    });
  }
  const lenient = lenientTwin(schema);
  let repaired = without(
    raw,
    issues.map((i) => i.path as PropertyKey[]),
  );
  // A removal can leave a parent the lenient schema still refuses (an entry that is a string):
  // that parent goes next. Each pass removes at least one level, so this ends.
  for (let pass = 0; pass < 8; pass++) {
    const again = z.safeParse(lenient, repaired);
    if (again.success) return again.data;
    repaired = without(
      repaired,
      again.error.issues.map((i) => i.path as PropertyKey[]),
    );
  }
  throw new SchemaError(
    `Response ${st.model} could not be read even leniently`,
    formatPath(prefix),
  );
}

/** An answer whose top-level arrays of objects (its entries) are read one entry at a time. */
interface Envelope {
  /** The answer's schema with those arrays' elements left unchecked. */
  schema: z.core.$ZodType;
  entries: Map<string, z.core.$ZodType>;
}

const envelopes = new WeakMap<z.core.$ZodType, Envelope | null>();
function envelopeOf(schema: z.core.$ZodType): Envelope | null {
  let found = envelopes.get(schema);
  if (found !== undefined) return found;
  let d = defOf(schema);
  while (d.type === 'lazy' && d.getter) d = defOf(d.getter());
  found = null;
  if (d.type === 'object' && d.shape) {
    const entries = new Map<string, z.core.$ZodType>();
    const shape: Record<string, z.core.$ZodType> = {};
    for (const [k, v] of Object.entries(d.shape)) {
      const f = defOf(v);
      const element = f.type === 'array' ? f.element : undefined;
      let e = element ? defOf(element) : undefined;
      while (e?.type === 'lazy' && e.getter) e = defOf(e.getter());
      if (element && e?.type === 'object') {
        entries.set(k, element);
        shape[k] = z.array(z.unknown());
      } else shape[k] = v;
    }
    if (entries.size > 0) found = { schema: z.looseObject(shape), entries };
  }
  envelopes.set(schema, found);
  return found;
}

/**
 * Reads `raw` against `schema`. Answers the validated value and no surprise when it conforms;
 * otherwise the surprises, and the value read around the broken fields. Entries (the elements
 * of an answer's top-level arrays of objects) are read one by one, so one entry's surprise
 * costs that entry a second read, not the page. With `strict`, any surprise but an unknown
 * field throws a SchemaError naming its path.
 *
 * @example
 * const { value, surprises } = readTolerant(AgentStatusPage, JSON.parse(text), 'AgentStatus page');
 */
export function readTolerant<S extends z.core.$ZodType>(
  schema: S,
  raw: unknown,
  model: string,
  options: { strict?: boolean } = {},
): Read<Tolerant<z.output<S>>> {
  // The contract's schemas are loose: unknown fields pass the parse and are found by a walk
  // over the keys, which costs far less than failing the parse would.
  const unknown: Surprise[] = [];
  unknownFields(layoutOf(schema), raw, [], unknown);
  // Most answers conform: one parse of the whole answer.
  const whole = z.safeParse(schema, raw);
  if (whole.success) return { value: whole.data as Tolerant<z.output<S>>, surprises: unknown };
  const st: ReadState = { model, strict: options.strict ?? false, surprises: [] };
  const envelope = envelopeOf(schema);
  let value: unknown;
  if (!envelope || raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    value = readValue(schema, raw, [], st);
  } else {
    const read = readValue(envelope.schema, raw, [], st) as Record<string, unknown>;
    for (const [key, element] of envelope.entries) {
      const list = read[key];
      if (Array.isArray(list)) read[key] = list.map((e, i) => readValue(element, e, [key, i], st));
    }
    value = read;
  }
  return { value: value as Tolerant<z.output<S>>, surprises: [...unknown, ...st.surprises] };
}
