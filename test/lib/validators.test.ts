import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AGENT_STATUS_GROUP_NAMES,
  DNSP_REPORT_TYPES,
  GSM_REPORT_TYPES,
  ValidationError,
  validateBatchSize,
  validateKeycode,
  validateMachineId,
  validateReportType,
  validateReturnedInfo,
  validateSiteId,
} from '../../lib/index.js';

function failure(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split('');
const group = fc
  .array(fc.constantFrom(...ALNUM), { minLength: 4, maxLength: 4 })
  .map((a) => a.join(''));
const keycode = fc.array(group, { minLength: 5, maxLength: 5 }).map((g) => g.join('-'));

describe('Function: validateKeycode', () => {
  it('accepts every well-formed keycode, in either case, and answers upper case', () => {
    fc.assert(
      fc.property(keycode, (k) => {
        expect(validateKeycode(k)).toBe(k);
        expect(validateKeycode(k.toLowerCase())).toBe(k);
      }),
    );
  });

  it('rejects anything not shaped like a keycode', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        fc.pre(!/^[A-Za-z0-9]{4}(-[A-Za-z0-9]{4}){4}$/.test(s.trim()));
        const err = failure(() => validateKeycode(s));
        expect(err.field).toBe('keyCode');
      }),
    );
    expect(failure(() => validateKeycode('ABCD-1234-EFGH-5678', 'gsmKey')).field).toBe('gsmKey');
    expect(failure(() => validateKeycode('ABCD-1234-EFGH-5678-IJK_')).rule).toMatch(/five groups/);
  });
});

describe('Function: validateMachineId', () => {
  const segment = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !s.includes(':'));
  it('accepts three non-empty colon-free segments joined by :::', () => {
    fc.assert(
      fc.property(segment, segment, segment, (a, b, c) => {
        expect(validateMachineId(`${a}:::${b}:::${c}`)).toBe(`${a}:::${b}:::${c}`);
      }),
    );
  });

  it('rejects any other number of segments', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 6 }).filter((a) => a.length !== 3),
        (parts) => {
          expect(failure(() => validateMachineId(parts.join(':::'))).field).toBe('machineId');
        },
      ),
    );
  });

  it('rejects three segments when one is empty or holds a colon', () => {
    const broken = fc.oneof(
      fc.constant(''),
      fc.tuple(segment, fc.nat(12)).map(([s, at]) => `${s.slice(0, at)}:${s.slice(at)}`),
    );
    fc.assert(
      fc.property(segment, segment, broken, fc.nat(2), (a, b, bad, where) => {
        const parts = [a, b];
        parts.splice(where, 0, bad);
        const err = failure(() => validateMachineId(parts.join(':::'), 'MachineID'));
        expect(err.field).toBe('MachineID');
        expect(err.rule).toMatch(/three non-empty segments/);
      }),
    );
  });

  it.each(['A:::B', 'A:::B:::C:::D', ':::B:::C', 'A::::B:::C', 'A:::B:::', 'A:B:::C:::D', ''])(
    'rejects %s',
    (value) => {
      expect(failure(() => validateMachineId(value)).field).toBe('machineId');
    },
  );
});

describe('Function: validateSiteId', () => {
  it('accepts UUIDs of any version and case', () => {
    fc.assert(
      fc.property(fc.uuid(), (u) => {
        expect(validateSiteId(u.toUpperCase())).toBe(u.toLowerCase());
      }),
    );
  });
  it.each([
    '',
    'not-a-uuid',
    '56e89d1d-f109-4b63-b598-01b88cd1de3',
    '56e89d1df1094b63b59801b88cd1de3f',
  ])('rejects %s', (value) => {
    expect(failure(() => validateSiteId(value)).rule).toMatch(/UUID/);
  });
});

describe('Function: validateBatchSize', () => {
  it('accepts integers 1..1000 and nothing else', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), (n) => {
        expect(validateBatchSize(n)).toBe(n);
      }),
    );
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 1001 }), fc.double({ noInteger: true })),
        (n) => {
          expect(failure(() => validateBatchSize(n)).field).toBe('batchSize');
        },
      ),
    );
  });
});

describe('Function: validateReturnedInfo', () => {
  it('joins known groups and rejects unknown, wrongly cased or empty ones', () => {
    expect(validateReturnedInfo(['BasicInfo', 'OSAndVersions'])).toBe('BasicInfo,OSAndVersions');
    expect(failure(() => validateReturnedInfo(['basicinfo'])).rule).toMatch(/not a group/);
    expect(failure(() => validateReturnedInfo(['Nope'])).field).toBe('returnedInfo');
    expect(failure(() => validateReturnedInfo([])).rule).toMatch(/at least one/);
  });
});

describe('Function: validateReturnedInfo (properties)', () => {
  const groupName = fc.constantFrom(...AGENT_STATUS_GROUP_NAMES);
  const notAGroup = fc
    .string({ minLength: 0, maxLength: 20 })
    .filter((s) => !(AGENT_STATUS_GROUP_NAMES as readonly string[]).includes(s));

  it('accepts every non-empty list of groups, each group once, in the order given', () => {
    fc.assert(
      fc.property(fc.array(groupName, { minLength: 1, maxLength: 12 }), (groups) => {
        const sent = validateReturnedInfo(groups).split(',');
        expect(new Set(sent).size).toBe(sent.length);
        expect(new Set(sent)).toEqual(new Set(groups));
        expect(sent[0]).toBe(groups[0]);
      }),
    );
  });

  it('rejects a list holding any name that is not a group, naming it', () => {
    fc.assert(
      fc.property(
        fc.array(groupName, { maxLength: 4 }),
        notAGroup,
        fc.array(groupName, { maxLength: 4 }),
        (before, bad, after) => {
          const err = failure(() => validateReturnedInfo([...before, bad, ...after]));
          expect(err.field).toBe('returnedInfo');
          expect(err.rule).toContain(`"${bad}"`);
        },
      ),
    );
  });

  it('is case-sensitive', () => {
    fc.assert(
      fc.property(groupName, fc.boolean(), (g, upper) => {
        const recased = upper ? g.toUpperCase() : g.toLowerCase();
        expect(failure(() => validateReturnedInfo([recased])).rule).toMatch(/not a group/);
      }),
    );
  });
});

describe('Function: validateReportType (properties)', () => {
  const families = [GSM_REPORT_TYPES, DNSP_REPORT_TYPES] as const;

  it('accepts exactly the values of each operation', () => {
    fc.assert(
      fc.property(fc.constantFrom(...families), fc.string({ maxLength: 40 }), (allowed, s) => {
        const known = (allowed as readonly string[]).includes(s);
        if (known) expect(validateReportType(s, allowed)).toBe(s);
        else expect(failure(() => validateReportType(s, allowed)).field).toBe('reportType');
      }),
    );
  });

  it("rejects the other operation's values and any change of case", () => {
    fc.assert(
      fc.property(fc.constantFrom(...GSM_REPORT_TYPES), fc.boolean(), (t, upper) => {
        expect(failure(() => validateReportType(t, DNSP_REPORT_TYPES)).rule).toMatch(/one of/);
        const recased = upper ? t.toUpperCase() : t.toLowerCase();
        expect(failure(() => validateReportType(recased, GSM_REPORT_TYPES)).field).toBe(
          'reportType',
        );
      }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...DNSP_REPORT_TYPES), (t) => {
        expect(failure(() => validateReportType(t, GSM_REPORT_TYPES)).rule).toMatch(/one of/);
      }),
    );
  });
});

describe('Function: validateReportType', () => {
  it('accepts only the values of the operation, case-sensitively', () => {
    for (const t of GSM_REPORT_TYPES) expect(validateReportType(t, GSM_REPORT_TYPES)).toBe(t);
    for (const t of DNSP_REPORT_TYPES) expect(validateReportType(t, DNSP_REPORT_TYPES)).toBe(t);
    expect(failure(() => validateReportType('DevicesSeen', GSM_REPORT_TYPES)).field).toBe(
      'reportType',
    );
    expect(failure(() => validateReportType('activeendpoints', GSM_REPORT_TYPES)).rule).toMatch(
      /one of/,
    );
  });
});
