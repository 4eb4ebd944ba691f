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

/** The schema with unknown keys refused: what a first read uses to notice them. */
const strictTwin = cached((s, self) =>
  rebuild(
    s,
    (shape) => z.strictObject(shape),
    (f) => f,
    self,
  ),
);

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

/** The surprises of a failed read, and the paths whose values must go for a lenient read. */
function surprisesOf(issues: readonly z.core.$ZodIssue[], raw: unknown) {
  const surprises: Surprise[] = [];
  const broken: PropertyKey[][] = [];
  for (const issue of issues) {
    const path = issue.path as PropertyKey[];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const at = [...path, key];
        surprises.push({ at: formatPath(at), path: countingPath(at), rule: 'unknown-field' });
      }
      continue;
    }
    surprises.push({
      at: formatPath(path),
      path: countingPath(path),
      rule: ruleOf(issue, valueAt(raw, path)),
    });
    broken.push(path);
  }
  return { surprises, broken };
}

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

/**
 * Reads `raw` against `schema`. Answers the validated value and no surprise when it conforms;
 * otherwise the surprises, and the value read again without the broken fields. With
 * `strict`, any surprise but an unknown field throws a SchemaError naming its path.
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
  const first = z.safeParse(strictTwin(schema), raw);
  if (first.success) return { value: first.data as Tolerant<z.output<S>>, surprises: [] };
  const { surprises, broken } = surprisesOf(first.error.issues, raw);
  const fatal = first.error.issues.find((i) => i.code !== 'unrecognized_keys');
  if (options.strict && fatal) {
    const path = formatPath(fatal.path as PropertyKey[]);
    throw new SchemaError(
      `Response ${model} breaks its schema at ${path}: ${fatal.message}`,
      path,
      {
        cause: first.error,
      },
    );
  }
  const lenient = lenientTwin(schema);
  let repaired = without(raw, broken);
  // A removal can leave a parent the lenient schema still refuses (an entry that is a string):
  // that parent goes next. Each pass removes at least one level, so this ends.
  for (let pass = 0; pass < 8; pass++) {
    const again = z.safeParse(lenient, repaired);
    if (again.success) return { value: again.data as Tolerant<z.output<S>>, surprises };
    repaired = without(
      repaired,
      again.error.issues.map((i) => i.path as PropertyKey[]),
    );
  }
  throw new SchemaError(`Response ${model} could not be read even leniently`, '(root)');
}
