/**
 * Deterministic integer hashing. Every field of the dataset is a pure function of the seed and
 * an index, so a console of a million endpoints costs no memory and two emulators with the same
 * seed serve byte-identical data.
 */

const HASH_START = 0x9e3779b9;

/** One input of `hash` folded into the running state. */
function mix(state: number, part: number): number {
  let h = Math.imul(state ^ (part | 0), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  // Mix the high bits of numbers above 2^32 (indexes stay below, ms timestamps do not).
  const high = Math.floor(part / 0x100000000);
  if (high !== 0) h = Math.imul(h ^ high, 0x27d4eb2d);
  return h;
}

function finish(state: number): number {
  let h = state ^ (state >>> 15);
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}

/** Mixes any number of 32-bit integers into one well-spread unsigned 32-bit hash. */
export function hash(...parts: number[]): number {
  let h = HASH_START;
  for (const part of parts) h = mix(h, part);
  return finish(h);
}

/**
 * `hash(a, b, c, d)` without the rest-parameter array, for the per-endpoint hashes computed for
 * every entry of a page and every endpoint of a blocked-URL count.
 */
export function hash4(a: number, b: number, c: number, d: number): number {
  return finish(mix(mix(mix(mix(HASH_START, a), b), c), d));
}

/** FNV-1a of a string, for keying hashes by names. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** An integer in [min, max] chosen by `h`. */
export function between(h: number, min: number, max: number): number {
  return min + (h % (max - min + 1));
}

/** One element of `items` chosen by `h`. */
export function pick<T>(h: number, items: readonly T[]): T {
  return items[h % items.length] as T;
}

/** A fraction in [0, 1) chosen by `h`. */
export function fraction(h: number): number {
  return h / 0x100000000;
}

/** mulberry32: a small seeded PRNG for sequences (fault draws), deterministic per seed. */
export function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x100000000;
  };
}

/**
 * `hash(h, n)` without the rest-parameter array: the status renderers call it ~40 times per
 * entry, and the allocation showed up as garbage-collection time on 1,000-entry pages.
 */
export function hash2(h: number, n: number): number {
  let x = Math.imul(0x9e3779b9 ^ h, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  x = Math.imul(x ^ n, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  x ^= x >>> 15;
  x = Math.imul(x, 0x2c1b3c6d);
  x ^= x >>> 12;
  return x >>> 0;
}
