import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderCsv, renderJsonLines, renderResult } from '../../scripts/query/formats.js';
import type { QueryResult, ResultColumn } from '../../scripts/query/query-result.js';
import { cellText, renderTable, shortType } from '../../scripts/query/render-table.js';

const col = (name: string, type = 'VARCHAR', numeric?: boolean): ResultColumn => ({
  name,
  type,
  numeric,
});
const lines = (text: string) => text.split('\n');

/** RFC 4180 read back: quoted fields with doubled quotes and line breaks, `\n` between lines. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      for (i++; i < text.length; i++) {
        if (text[i] === '"' && text[i + 1] === '"') {
          field += '"';
          i++;
        } else if (text[i] === '"') break;
        else field += text[i];
      }
      i++;
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\n') field += text[i++];
    }
    fields.push(field);
    if (text[i] === '\n') {
      records.push(fields);
      fields = [];
    }
    i++;
  }
  return records;
}

/** Three columns of any names, up to 8 rows of any cells, any cut and row limit. */
const cell = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.integer(),
  fc.bigInt(),
  fc.double(),
  fc.constant(null),
  fc.boolean(),
  fc.dictionary(fc.string(), fc.string()),
);
const boxes = fc.tuple(
  fc.array(fc.string({ unit: 'binary' }), { minLength: 3, maxLength: 3 }),
  fc.array(fc.tuple(cell, cell, cell), { maxLength: 8 }),
  fc.integer({ min: 1, max: 30 }),
  fc.integer({ min: 0, max: 6 }),
);

describe('Function: renderTable', () => {
  it('right-aligns numbers, left-aligns text, and quotes neither', () => {
    // Prepare: BIGINT and DECIMAL come from DuckDB's JSON conversion as exact strings.
    const result: QueryResult = {
      columns: [col('site'), col('endpoints', 'BIGINT', true), col('share', 'DECIMAL(5,3)', true)],
      rows: [
        ['Acme Dental', '109', '0.250'],
        ['Globex', '7', '1.000'],
      ],
    };

    // Act
    const table = renderTable(result);

    // Assess
    expect(table).toBe(
      [
        '┌─────────────┬───────────┬──────────────┐',
        '│    site     │ endpoints │    share     │',
        '│   varchar   │  bigint   │ decimal(5,3) │',
        '├─────────────┼───────────┼──────────────┤',
        '│ Acme Dental │       109 │        0.250 │',
        '│ Globex      │         7 │        1.000 │',
        '└─────────────┴───────────┴──────────────┘',
        '2 rows',
      ].join('\n'),
    );
    expect(table).not.toMatch(/['"]/);
  });

  it('shows NULL for null, and a bigint or a huge integer whole', () => {
    const table = renderTable({
      columns: [col('n'), col('big', 'HUGEINT')],
      rows: [
        [null, 170141183460469231731687303715884105727n],
        ['x', 12n],
      ],
    });
    const body = lines(table).slice(4, 6);
    expect(body).toEqual([
      '│ NULL    │ 170141183460469231731687303715884105727 │',
      '│ x       │                                      12 │',
    ]);
  });

  it('right-aligns a column of JS numbers without being told', () => {
    const table = renderTable({ columns: [col('n', 'DOUBLE')], rows: [[1.5], [null], [10]] });
    expect(lines(table).slice(4, 7)).toEqual(['│    1.5 │', '│   NULL │', '│     10 │']);
  });

  it('shows structs and lists as JSON, and cuts long cells with …', () => {
    const table = renderTable(
      {
        columns: [col('info', 'STRUCT("A" BIGINT, "B" VARCHAR[])'), col('list', 'VARCHAR[]')],
        rows: [[{ A: 1n, B: ['x', 'y'] }, ['a-long-entry', 'another-long-entry']]],
      },
      { maxCellWidth: 20 },
    );
    expect(lines(table).slice(2, 5)).toEqual([
      '│        struct        │      varchar[]       │',
      '├──────────────────────┼──────────────────────┤',
      '│ {"A":"1","B":["x","… │ ["a-long-entry","an… │',
    ]);
  });

  it('keeps a cell on its line: line breaks and control characters as escapes', () => {
    expect(cellText('a\nb\tc\r\u0001')).toBe('a\\nb\\tc\\r\\u0001');
    expect(lines(renderTable({ columns: [col('t')], rows: [['a\nb']] }))).toHaveLength(7);
  });

  it('leaves out the middle rows past maxRows, and says so', () => {
    const rows = Array.from({ length: 10 }, (_, i) => [String(i)]);
    const table = renderTable({ columns: [col('i', 'BIGINT', true)], rows }, { maxRows: 4 });
    expect(lines(table).slice(4)).toEqual([
      '│      0 │',
      '│      1 │',
      '│   …    │',
      '│      8 │',
      '│      9 │',
      '└────────┘',
      '10 rows (4 shown)',
    ]);
    const one = renderTable({ columns: [col('i', 'BIGINT', true)], rows }, { maxRows: 1 });
    expect(lines(one).slice(4, -2)).toEqual(['│      0 │', '│   …    │']);
    expect(renderTable({ columns: [col('i')], rows }, { maxRows: 0 })).toMatch(/\n10 rows$/);
  });

  it('draws the header of an empty result, and counts one row as a row', () => {
    expect(lines(renderTable({ columns: [col('x')], rows: [] })).at(-1)).toBe('0 rows');
    expect(lines(renderTable({ columns: [col('x')], rows: [['a']] })).at(-1)).toBe('1 row');
  });

  it('draws every line of the box the same width, whatever the cells hold', () => {
    fc.assert(
      fc.property(boxes, ([names, rows, maxCellWidth, maxRows]) => {
        const table = renderTable(
          { columns: names.map((n) => col(n, 'VARCHAR')), rows },
          { maxCellWidth, maxRows },
        );
        const box = lines(table).slice(0, -1);
        const widths = new Set(box.map((l) => [...l].length));
        const shown = maxRows > 0 && rows.length > maxRows ? maxRows + 1 : rows.length;
        if (widths.size !== 1 || box.length !== 5 + shown) throw new Error(`ragged:\n${table}`);
      }),
    );
  });
});

describe('Function: shortType', () => {
  it('names nested types by their kind, and keeps the rest in lower case', () => {
    expect(shortType('STRUCT("SiteKey" VARCHAR, "Sites" STRUCT(a BIGINT)[])[]')).toBe('struct[]');
    expect(shortType('MAP(VARCHAR, INTEGER)')).toBe('map');
    expect(shortType('DECIMAL(18,3)')).toBe('decimal(18,3)');
    expect(shortType('TIMESTAMP WITH TIME ZONE')).toBe('timestamp with time zone');
  });
});

describe('Function: renderCsv', () => {
  it('quotes a field with a comma, a quote or a line break, and an empty string', () => {
    const csv = renderCsv({
      columns: [col('name'), col('n', 'BIGINT', true), col('info', 'STRUCT(a BIGINT)')],
      rows: [
        ['Acme, Inc.', '1', { a: 1 }],
        ['say "hi"', null, null],
        ['two\nlines', '3', null],
        ['', '4', null],
        ['cr\r', '5', null],
      ],
    });
    expect(csv).toBe(
      [
        'name,n,info',
        '"Acme, Inc.",1,"{""a"":1}"',
        '"say ""hi""",,',
        '"two\nlines",3,',
        '"",4,',
        '"cr\r",5,',
        '',
      ].join('\n'),
    );
  });

  it('reads back, field for field, with any text in any field', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 4 }).chain((names) =>
          fc.tuple(
            fc.constant(names),
            fc.array(
              fc.array(fc.option(fc.string({ unit: 'binary' })), {
                minLength: names.length,
                maxLength: names.length,
              }),
              { maxLength: 6 },
            ),
          ),
        ),
        ([names, rows]) => {
          const csv = renderCsv({ columns: names.map((n) => col(n)), rows });
          expect(parseCsv(csv)).toEqual([names, ...rows.map((r) => r.map((v) => v ?? ''))]);
        },
      ),
    );
  });
});

describe('Function: renderJsonLines', () => {
  it('prints one object a row, a repeated name under its own key', () => {
    const text = renderJsonLines({
      columns: [
        { name: 'a', key: 'a', type: 'INTEGER' },
        { name: 'a', key: 'a:1', type: 'BIGINT' },
      ],
      rows: [
        [1, '2'],
        [null, 9007199254740993n],
      ],
    });
    expect(text).toBe('{"a":1,"a:1":"2"}\n{"a":null,"a:1":"9007199254740993"}\n');
  });
});

describe('Function: renderResult', () => {
  it('ends every format with a line break, and prints no rows as nothing in CSV but the header', () => {
    const empty: QueryResult = { columns: [col('x')], rows: [] };
    expect(renderResult(empty, 'csv')).toBe('x\n');
    expect(renderResult(empty, 'json')).toBe('');
    expect(renderResult(empty, 'table')).toMatch(/0 rows\n$/);
  });
});
