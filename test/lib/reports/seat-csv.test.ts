import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  csvField,
  daysOfMonth,
  previousMonth,
  SEAT_CSV_COLUMNS,
  type SeatReport,
  seatCsv,
} from '../../../lib/reports/seat-report.js';

/** RFC 4180 fields of one line, the way a PSA's importer reads them. */
function parseLine(line: string): string[] {
  const fields: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i++;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          value += '"';
          i += 2;
        } else if (line[i] === '"') {
          i++;
          break;
        } else value += line[i++];
      }
      fields.push(value);
      i++;
    } else {
      const end = line.indexOf(',', i);
      fields.push(line.slice(i, end === -1 ? line.length : end));
      i = end === -1 ? line.length + 1 : end + 1;
    }
  }
  return fields;
}

const report = (siteName: string): SeatReport => ({
  gsm: 'W9YT-G4ZI-JT0Z-ERPO-3ZZI',
  month: '2026-05',
  daysInMonth: 31,
  daysArchived: daysOfMonth('2026-05'),
  sites: [
    {
      siteKey: 'SITE-KEY',
      siteId: 'id-1',
      siteName,
      licence: 'Trial',
      trialDays: 10,
      fullDays: 21,
      daysReported: 31,
      endpointsMax: 40,
      endpointsAvg: 35.5,
      endpointsLastDay: 38,
      lastDay: '2026-05-31',
      dnspEnabled: true,
      dnspSeatsMax: 20,
      dnspSeatsLastDay: 19,
    },
  ],
});

describe('Function: seatCsv', () => {
  it('writes the documented header, then a line a site with CRLF ends', () => {
    const csv = seatCsv(report('Acme, "Main" office'));
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(SEAT_CSV_COLUMNS.join(','));
    expect(lines.at(-1)).toBe('');
    const fields = parseLine(lines[1] ?? '');
    expect(fields).toHaveLength(SEAT_CSV_COLUMNS.length);
    expect(fields[SEAT_CSV_COLUMNS.indexOf('site_name')]).toBe('Acme, "Main" office');
    expect(fields[SEAT_CSV_COLUMNS.indexOf('endpoints_avg')]).toBe('35.50');
  });

  it('keeps any site name whole, and never lets one start a spreadsheet formula', () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        const fields = parseLine(seatCsv(report(name)).split('\r\n').slice(1, -1).join('\r\n'));
        const read = fields[SEAT_CSV_COLUMNS.indexOf('site_name')] ?? '';
        // Exactly one quote before a formula's first character; a name that already starts
        // with a quote keeps it as it is.
        expect(read).toBe(/^[=+\-@\t\r]/.test(name) ? `'${name}` : name);
        expect(read).not.toMatch(/^[=+\-@\t\r]/);
      }),
      { examples: [["'=1"], ['=1'], ["'"]] },
    );
  });

  it('quotes only what needs quoting', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField(12)).toBe('12');
    expect(csvField(-3)).toBe('-3');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  });
});

describe('Function: previousMonth', () => {
  it('steps back across a year', () => {
    expect(previousMonth('2026-01-02')).toBe('2025-12');
    expect(previousMonth('2026-07-01')).toBe('2026-06');
    expect(daysOfMonth('2028-02')).toHaveLength(29);
  });
});
