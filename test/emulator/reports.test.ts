import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  DAY_MS,
  day,
  type Emulator,
  expectProblem,
  fixture,
  getOk,
  ISO_UTC_RE,
  type Json,
  MIDNIGHT_RE,
  midnight,
  start,
  token,
  UUID_RE,
} from './helpers.js';

let em: Emulator;
let tok: string;
let fx: ReturnType<typeof fixture>;

beforeAll(async () => {
  em = await start();
  fx = fixture(em);
});
afterAll(() => em.close());
beforeEach(async () => {
  tok = await token(em, ['SkyStatus.Reporting']);
});

const gsmReport = () => `/api/status/reporting/gsm/${fx.gsm.key}`;
const sitesReport = () => `${gsmReport()}/sites`;
const siteReport = (key = fx.site.key) => `${gsmReport()}/sites/${key}`;
const dnspReport = (key = fx.site.key) => `${gsmReport()}/sites/${key}/dnsp`;

/** Dates relative to the emulator clock. */
const today = () => midnight(em.now().getTime());
const dayBeforeYesterday = () => today() - 2 * DAY_MS;

function report(path: string, query: Record<string, string> = {}): Promise<Json> {
  return getOk(em, path, { token: tok, query });
}

function info(body: Json): Json {
  return body.ReportInfo as Json;
}

function expectTypes(obj: Json, row: Record<string, string>, where: string) {
  for (const [field, kind] of Object.entries(row)) {
    const v = obj[field];
    const ok =
      kind === 'string'
        ? typeof v === 'string'
        : kind === 'integer'
          ? Number.isInteger(v)
          : kind === 'boolean'
            ? typeof v === 'boolean'
            : kind === 'uuid'
              ? typeof v === 'string' && UUID_RE.test(v)
              : typeof v === 'string' && ISO_UTC_RE.test(v);
    expect(ok, `${where}.${field} = ${JSON.stringify(v)} is not ${kind}`).toBe(true);
  }
}

const REPORT_INFO_ROW = { ReportType: 'string', EffectiveDate: 'datetime', GSMKey: 'string' };

describe('GSM usage report (4.5)', () => {
  it('defaults to EndpointsSeenInLast30Days for the day before yesterday, with every 2.4 field', async () => {
    const body = await report(gsmReport());
    expectTypes(info(body), REPORT_INFO_ROW, 'ReportInfo');
    expect(info(body).ReportType).toBe('EndpointsSeenInLast30Days');
    expect(info(body).GSMKey).toBe(fx.gsm.key);
    expect(info(body).EffectiveDate).toMatch(MIDNIGHT_RE);
    expect(Date.parse(String(info(body).EffectiveDate))).toBe(dayBeforeYesterday());
    const gsm = body.GSM as Json;
    expectTypes(
      gsm,
      {
        GSMConsoleName: 'string',
        LicenseType: 'string',
        ExpiryDate: 'datetime',
        TotalSitesWithoutTrial: 'integer',
        TotalTrialSites: 'integer',
        TotalEndpointsWithoutTrial: 'integer',
        TotalTrialEndpoints: 'integer',
      },
      'GSM',
    );
    expect(gsm.GSMConsoleName).toBe(fx.gsm.name);
    expect(Number(gsm.TotalSitesWithoutTrial) + Number(gsm.TotalTrialSites)).toBe(
      fx.gsm.sites.length,
    );
  });

  it.each(['ActiveEndpoints', 'ActiveEndpointsWithoutHidden', 'EndpointsSeenInLast30Days'])(
    'echoes reportType %s',
    async (reportType) => {
      expect(info(await report(gsmReport(), { reportType })).ReportType).toBe(reportType);
    },
  );

  it.each(['activeendpoints', 'DevicesSeen', 'Bogus', ''])(
    'rejects reportType=%j with 400 naming reportType',
    async (reportType) => {
      const res = await call(em, gsmReport(), { token: tok, query: { reportType } });
      await expectProblem(res, 400, 'invalid_parameter', 'reportType');
    },
  );

  it('counts no more endpoints without hidden ones than with them', async () => {
    const gsm = async (reportType: string) => {
      const g = (await report(gsmReport(), { reportType })).GSM as Json;
      return Number(g.TotalEndpointsWithoutTrial) + Number(g.TotalTrialEndpoints);
    };
    expect(await gsm('ActiveEndpointsWithoutHidden')).toBeLessThanOrEqual(
      await gsm('ActiveEndpoints'),
    );
  });

  it('answers 400/404 for malformed, unknown and site keycodes', async () => {
    await expectProblem(
      await call(em, '/api/status/reporting/gsm/nope', { token: tok }),
      400,
      'invalid_parameter',
      'gsmKey',
    );
    await expectProblem(
      await call(em, '/api/status/reporting/gsm/ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZ99', { token: tok }),
      404,
      'not_found',
    );
    await expectProblem(
      await call(em, `/api/status/reporting/gsm/${fx.site.key}`, { token: tok }),
      404,
      'not_found',
    );
  });
});

describe('Usage reports: effectiveDate (4.5, 4.6, 4.7, 4.8)', () => {
  const paths = () => [gsmReport(), sitesReport(), siteReport(), dnspReport()];

  it('rejects today and yesterday (date or datetime form) with 400 naming effectiveDate', async () => {
    const values = [
      day(today()),
      day(today() - DAY_MS),
      `${day(today() - DAY_MS)}T00:00:00Z`,
      day(today() + DAY_MS),
    ];
    for (const path of paths()) {
      for (const effectiveDate of values) {
        const res = await call(em, path, { token: tok, query: { effectiveDate } });
        await expectProblem(res, 400, 'invalid_parameter', 'effectiveDate');
      }
    }
  });

  it('serves the day before yesterday, echoing it at 00:00:00Z', async () => {
    for (const path of paths()) {
      for (const effectiveDate of [
        day(dayBeforeYesterday()),
        `${day(dayBeforeYesterday())}T23:59:59Z`,
      ]) {
        const body = await report(path, { effectiveDate });
        expect(info(body).EffectiveDate).toMatch(MIDNIGHT_RE);
        expect(Date.parse(String(info(body).EffectiveDate))).toBe(dayBeforeYesterday());
      }
    }
  });

  it('takes the UTC date of a datetime with an offset', async () => {
    const dby = day(dayBeforeYesterday());
    const yesterday = day(today() - DAY_MS);
    // Local date is the day before yesterday, UTC date is yesterday: not available yet.
    const late = await call(em, gsmReport(), {
      token: tok,
      query: { effectiveDate: `${dby}T23:30:00-02:00` },
    });
    await expectProblem(late, 400, 'invalid_parameter', 'effectiveDate');
    // Local date is yesterday, UTC date is the day before yesterday: served as that day.
    const early = await report(gsmReport(), { effectiveDate: `${yesterday}T01:00:00+02:00` });
    expect(Date.parse(String(info(early).EffectiveDate))).toBe(dayBeforeYesterday());
  });

  it('returns the most recent report when omitted, equal to asking for the day before yesterday', async () => {
    for (const path of paths()) {
      const omitted = await report(path);
      const explicit = await report(path, { effectiveDate: day(dayBeforeYesterday()) });
      expect(omitted).toEqual(explicit);
    }
  });

  it('keeps reports for 400 days: 390 days back is served, 410 days back is 404', async () => {
    for (const path of paths()) {
      const kept = await report(path, { effectiveDate: day(today() - 390 * DAY_MS) });
      expect(Date.parse(String(info(kept).EffectiveDate))).toBe(today() - 390 * DAY_MS);
      const gone = await call(em, path, {
        token: tok,
        query: { effectiveDate: day(today() - 410 * DAY_MS) },
      });
      await expectProblem(gone, 404, 'not_found');
    }
  });

  it.each(['soon', '2026-02-30', '15/06/2026'])(
    'rejects effectiveDate=%j with 400',
    async (effectiveDate) => {
      const res = await call(em, gsmReport(), { token: tok, query: { effectiveDate } });
      await expectProblem(res, 400, 'invalid_parameter', 'effectiveDate');
    },
  );
});

describe('Usage reports follow the clock', () => {
  it('makes yesterday available once a day has passed, leaving older reports unchanged', async () => {
    const before = day(today() - DAY_MS);
    const older = day(today() - 5 * DAY_MS);
    const olderBefore = await report(sitesReport(), { effectiveDate: older });
    em.advanceClock(86_400);
    tok = await token(em, ['SkyStatus.Reporting']);
    const body = await report(gsmReport());
    expect(day(Date.parse(String(info(body).EffectiveDate)))).toBe(before);
    expect(info(await report(gsmReport(), { effectiveDate: before })).EffectiveDate).toBe(
      info(body).EffectiveDate,
    );
    expect(await report(sitesReport(), { effectiveDate: older })).toEqual(olderBefore);
  });
});
