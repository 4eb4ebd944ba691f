import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  holdingWindow,
  MUTES_SCHEMA,
  MutesDocumentError,
  mutesProblems,
  parseMutesText,
  windowActive,
} from '../../lib/alerts/index.js';

const ALERT = {
  gsm: 'G1',
  site: 'KC-ACME',
  siteName: 'Acme Dental',
  machineId: 'M1',
  kind: 'offline' as const,
};
const W = {
  id: 'w1',
  match: { site: 'KC-ACME' },
  from: '2026-06-15T10:00:00Z',
  to: '2026-06-15T12:00:00Z',
  reason: 'Re-imaging',
  by: 'ana',
};

describe('Function: windowActive', () => {
  it('holds from `from` included to `to` excluded, for any window and instant', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4e12 }),
        fc.integer({ min: 1, max: 1e9 }),
        fc.integer({ min: -1e9, max: 2e9 }),
        (from, length, offset) => {
          const w = {
            from: new Date(from).toISOString(),
            to: new Date(from + length).toISOString(),
          };
          expect(windowActive(w, from)).toBe(true);
          expect(windowActive(w, from - 1)).toBe(false);
          expect(windowActive(w, from + length - 1)).toBe(true);
          expect(windowActive(w, from + length)).toBe(false);
          expect(windowActive(w, from + offset)).toBe(offset >= 0 && offset < length);
        },
      ),
    );
  });
});

describe('Function: holdingWindow', () => {
  const doc = (match: object) => ({ schema: MUTES_SCHEMA, windows: [{ ...W, match }] }) as never;
  const noon = Date.parse('2026-06-15T11:00:00Z');

  it('matches a site by keycode or name without regard to case, and every field given', () => {
    expect(holdingWindow(doc({ site: 'kc-acme' }), ALERT, noon)?.id).toBe('w1');
    expect(holdingWindow(doc({ site: 'ACME DENTAL' }), ALERT, noon)?.id).toBe('w1');
    expect(holdingWindow(doc({ site: 'Acme Dental', kind: 'offline' }), ALERT, noon)?.id).toBe(
      'w1',
    );
    expect(
      holdingWindow(doc({ site: 'Acme Dental', kind: 'infected' }), ALERT, noon),
    ).toBeUndefined();
    expect(holdingWindow(doc({ machineId: 'm1', gsm: 'g1' }), ALERT, noon)?.id).toBe('w1');
    expect(holdingWindow(doc({ machineId: 'M2' }), ALERT, noon)).toBeUndefined();
  });
});

describe('Schema: MutesDocument', () => {
  it('lists every problem with its path', () => {
    const problems = mutesProblems({
      schema: MUTES_SCHEMA,
      windows: [
        { ...W, match: {}, to: W.from },
        { ...W, match: { kind: 'asleep' }, from: 'noon', reason: '' },
        W,
      ],
    }).map((p) => p.path);
    expect(problems).toEqual(
      expect.arrayContaining([
        'windows[0].match',
        'windows[0].to',
        'windows[1].match.kind',
        'windows[1].from',
        'windows[1].reason',
        'windows[2].id',
      ]),
    );
  });

  it('refuses text that is not JSON with a MutesDocumentError', () => {
    expect(() => parseMutesText('{')).toThrow(MutesDocumentError);
    expect(parseMutesText(JSON.stringify({ schema: MUTES_SCHEMA })).windows).toEqual([]);
  });
});
