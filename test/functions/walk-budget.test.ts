import { describe, expect, it } from 'vitest';
import { gsmBudgets, walkBudget } from '../../functions/infection-alerter/walk-budget.js';

describe('Function: walkBudget', () => {
  it('is spent once less than the reserve is left', () => {
    let left = 50_000;
    const budget = walkBudget(() => left, 45_000);
    expect(budget.spent()).toBe(false);
    left = 44_999;
    expect(budget.spent()).toBe(true);
  });
});

describe('Function: gsmBudgets', () => {
  it('gives each GSM an equal share of the walking time, the last one walking to the reserve', () => {
    let left = 120_000;
    const [first, second, third] = gsmBudgets(() => left, 30_000, 3);
    // 90 s to walk, 30 s a GSM: the first stops at 90 s left, the second at 60 s.
    left = 90_001;
    expect([first?.spent(), second?.spent(), third?.spent()]).toEqual([false, false, false]);
    left = 89_999;
    expect([first?.spent(), second?.spent(), third?.spent()]).toEqual([true, false, false]);
    left = 59_999;
    expect([second?.spent(), third?.spent()]).toEqual([true, false]);
    left = 29_999;
    expect(third?.spent()).toBe(true);
  });

  it('leaves a GSM that finished early its unused time to the later ones', () => {
    let left = 120_000;
    const [, second] = gsmBudgets(() => left, 30_000, 3);
    // The first GSM took no time at all: the second walks until its own stop, at 60 s left.
    left = 60_001;
    expect(second?.spent()).toBe(false);
  });

  it('has one budget for one GSM, spent at the reserve', () => {
    let left = 120_000;
    const budgets = gsmBudgets(() => left, 30_000, 1);
    expect(budgets).toHaveLength(1);
    left = 30_001;
    expect(budgets[0]?.spent()).toBe(false);
    left = 29_999;
    expect(budgets[0]?.spent()).toBe(true);
  });
});
