import { describe, expect, it } from 'vitest';
import { type ArchiveRun, lastToSecondTenth } from '../../bench/archive-results.js';
import { maxByTenth } from '../../bench/tenths.js';

describe('Function: maxByTenth (bench RSS over a walk)', () => {
  it('keeps the largest sample of each tenth of the run', () => {
    const samples = [5, 15, 25, 35, 45, 55, 65, 75, 85, 95].flatMap((atMs, i) => [
      { atMs, value: i },
      { atMs: atMs + 1, value: 100 + i },
      { atMs: atMs + 2, value: i },
    ]);
    expect(maxByTenth(samples, 100)).toEqual([100, 101, 102, 103, 104, 105, 106, 107, 108, 109]);
  });

  it('leaves a tenth no sample fell in empty, and counts the last instant in the last tenth', () => {
    expect(
      maxByTenth(
        [
          { atMs: 0, value: 7 },
          { atMs: 100, value: 9 },
        ],
        100,
      ),
    ).toEqual([7, null, null, null, null, null, null, null, null, 9]);
  });

  it('ignores samples taken outside the run', () => {
    expect(
      maxByTenth(
        [
          { atMs: -1, value: 1 },
          { atMs: 101, value: 2 },
        ],
        100,
      ),
    ).toEqual(Array.from({ length: 10 }, () => null));
  });
});

describe('Function: lastToSecondTenth (is RSS flat over a walk?)', () => {
  const walk = (rssByTenthMiB: (number | null)[]) => ({ rssByTenthMiB }) as ArchiveRun;

  it('divides the largest sample of the last tenth by that of the second', () => {
    expect(lastToSecondTenth(walk([90, 200, 210, 215, 220, 220, 221, 222, 225, 230]))).toBe(1.15);
  });

  it('answers NaN, never a pass, when either tenth has no sample', () => {
    expect(lastToSecondTenth(walk([90, null, 1, 1, 1, 1, 1, 1, 1, 1]))).toBeNaN();
    expect(lastToSecondTenth(walk([90, 100, 1, 1, 1, 1, 1, 1, 1, null]))).toBeNaN();
  });
});
