import { hash, hash4 } from './random.js';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A keycode of the spec's shape (five groups of four) derived from hash inputs. */
export function keycode(...parts: number[]): string {
  const groups: string[] = [];
  for (let g = 0; g < 5; g++) {
    let group = '';
    for (let c = 0; c < 4; c++) group += KEY_ALPHABET[hash(...parts, g, c) % KEY_ALPHABET.length];
    groups.push(group);
  }
  return groups.join('-');
}

function hex(value: number, width: number): string {
  return value.toString(16).toUpperCase().padStart(width, '0');
}

/** A v4-shaped UUID derived from hash inputs. */
export function uuid(...parts: number[]): string {
  const w = [0, 1, 2, 3].map((i) => hash(...parts, 0xa11d, i));
  const [a = 0, b = 0, c = 0, d = 0] = w;
  const time = hex(b >>> 16, 4);
  const version = hex(0x4000 | (b & 0x0fff), 4);
  const variant = hex(0x8000 | (c & 0x3fff), 4);
  return `${hex(a, 8)}-${time}-${version}-${variant}-${hex(c >>> 16, 4)}${hex(d, 8)}`.toLowerCase();
}

/** Upper-case hex of every byte: every status entry renders a MachineID. */
export const BYTE_HEX: readonly string[] = Array.from({ length: 256 }, (_, b) => hex(b, 2));

/** `hex(value, 8)` of an unsigned 32-bit value, from the byte table. */
function hex8(v: number): string {
  return (
    (BYTE_HEX[v >>> 24] as string) +
    BYTE_HEX[(v >>> 16) & 255] +
    BYTE_HEX[(v >>> 8) & 255] +
    BYTE_HEX[v & 255]
  );
}

/**
 * MachineIDs carry their own address (GSM and endpoint index) in the third segment so a lookup
 * needs no table; the first two segments are hashes that make a forged address fail to match.
 */
export function machineId(seed: number, gsmIndex: number, index: number): string {
  const a = hex8(hash4(seed, 0x3ac, gsmIndex, index)) + hex8(hash4(seed, 0x3ad, gsmIndex, index));
  const b = hex8(hash4(seed, 0x3ae, gsmIndex, index)) + hex8(hash4(seed, 0x3af, gsmIndex, index));
  // Options keep GSMs below 256 and indexes below 2^32; anything else takes the general form.
  const address =
    gsmIndex < 256 && index < 0x100000000
      ? (BYTE_HEX[gsmIndex] as string) + hex8(index)
      : hex(gsmIndex, 2) + hex(index, 8);
  return `${a}:::${b}:::${address}`;
}

/** The (gsm, index) address of a MachineID this dataset issued, or undefined. */
export function parseMachineId(
  seed: number,
  id: string,
): { gsmIndex: number; index: number } | undefined {
  const third = id.split(':::')[2];
  if (third === undefined || !/^[0-9A-F]{10}$/i.test(third)) return undefined;
  const gsmIndex = Number.parseInt(third.slice(0, 2), 16);
  const index = Number.parseInt(third.slice(2), 16);
  return machineId(seed, gsmIndex, index) === id.toUpperCase() ? { gsmIndex, index } : undefined;
}
