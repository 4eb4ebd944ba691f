import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  type Emulator,
  expectProblem,
  fixture,
  getOk,
  type Json,
  start,
  token,
} from './helpers.js';

const NS_I = 'http://www.w3.org/2001/XMLSchema-instance';
// Values stay strings so the test, not the parser, decides what a number or boolean is.
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  trimValues: true,
});

let em: Emulator;
let tok: string;
let fx: ReturnType<typeof fixture>;

beforeAll(async () => {
  em = await start();
  fx = fixture(em);
});
afterAll(() => em.close());
beforeEach(async () => {
  tok = await token(em);
});

const blocked = () => `/api/console/gsm/${fx.gsm.key}/sites/${fx.site.id}/blockedurls/counts`;
const dnsp = () => `/api/status/reporting/gsm/${fx.gsm.key}/sites/${fx.site.key}/dnsp`;

async function getXml(
  path: string,
  accept = 'application/xml',
): Promise<{ text: string; doc: Json }> {
  const res = await call(em, path, { token: tok, accept });
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^(application|text)\/xml/);
  expect(XMLValidator.validate(text)).toBe(true);
  return { text, doc: parser.parse(text) as Json };
}

function items(container: unknown, name: string): Json[] {
  const v = (container as Json | undefined)?.[name];
  if (v === undefined) return [];
  return Array.isArray(v) ? (v as Json[]) : [v as Json];
}

describe('XML representation: blocked-URL counts (4.9)', () => {
  it('answers GetBlockedURLsCountsResponse with the JSON values, items wrapped by model name', async () => {
    for (const accept of ['application/xml', 'text/xml']) {
      const { text, doc } = await getXml(blocked(), accept);
      const json = await getOk(em, blocked(), { token: tok });
      const root = doc.GetBlockedURLsCountsResponse as Json;
      expect(root, text.slice(0, 300)).toBeDefined();
      expect(root['@xmlns:i']).toBe(NS_I);
      expect(root.IncludeDeactivated).toBe('false');
      expect(root.IncludeHidden).toBe('false');
      expect(Date.parse(String(root.StartDate))).toBe(Date.parse(String(json.StartDate)));
      expect(Date.parse(String(root.EndDate))).toBe(Date.parse(String(json.EndDate)));
      const dated = items(root.DatedCounts, 'GetBlockedURLsCountsResponseDatedCount');
      expect(
        dated.map((d) => ({ Date: Date.parse(String(d.Date)), Count: Number(d.Count) })),
      ).toEqual(
        (json.DatedCounts as Json[]).map((d) => ({
          Date: Date.parse(String(d.Date)),
          Count: d.Count,
        })),
      );
    }
  });

  it('renders an empty DatedCounts as an empty element', async () => {
    const d = Date.parse(String(em.now().toISOString().slice(0, 10))) - 3 * 86_400_000;
    const query = {
      startDate: new Date(d + 3600_000).toISOString(),
      endDate: new Date(d + 5 * 3600_000).toISOString(),
    };
    const json = await getOk(em, blocked(), { token: tok, query });
    expect(json.DatedCounts).toEqual([]);
    const res = await call(em, blocked(), { token: tok, accept: 'application/xml', query });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(XMLValidator.validate(text)).toBe(true);
    const root = (parser.parse(text) as Json).GetBlockedURLsCountsResponse as Json;
    expect(items(root.DatedCounts, 'GetBlockedURLsCountsResponseDatedCount')).toEqual([]);
    expect(text).toMatch(/<DatedCounts\s*\/>|<DatedCounts><\/DatedCounts>/);
  });

  it('still answers JSON for Accept: application/json and */*', async () => {
    for (const accept of [
      'application/json',
      '*/*',
      'application/json; charset=utf-8',
      'application/*',
    ]) {
      const res = await call(em, blocked(), { token: tok, accept });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(typeof (await res.json())).toBe('object');
    }
  });
});

describe('XML representation: DNSP site usage report (4.8)', () => {
  it('answers UsageReportSite_DNSP with ReportInfo and UsageReportSites_DNSP_SiteEntry items', async () => {
    const { doc } = await getXml(dnsp());
    const json = await getOk(em, dnsp(), { token: tok });
    const root = doc.UsageReportSite_DNSP as Json;
    expect(root['@xmlns:i']).toBe(NS_I);
    const ri = root.ReportInfo as Json;
    const jri = json.ReportInfo as Json;
    expect(ri.SiteKeyFilter).toBe(jri.SiteKeyFilter);
    expect(ri.ReportType).toBe(jri.ReportType);
    expect(ri.GSMKey).toBe(jri.GSMKey);
    expect(Number(ri.Count)).toBe(jri.Count);
    const entries = items(root.Sites, 'UsageReportSites_DNSP_SiteEntry');
    const jsonSites = json.Sites as Json[];
    expect(entries).toHaveLength(jsonSites.length);
    for (const [i, e] of entries.entries()) {
      const j = jsonSites[i] as Json;
      for (const [k, v] of Object.entries(j)) {
        const x = e[k];
        if (typeof v === 'string' && /T\d\d:/.test(v))
          expect(Date.parse(String(x)), k).toBe(Date.parse(v));
        else expect(String(x), k).toBe(String(v));
      }
    }
  });
});

describe('Content negotiation', () => {
  it.each(['4.1', '4.3', '4.5'])(
    'answers 406 to Accept: application/xml on JSON-only operation %s',
    async (name) => {
      const path =
        {
          '4.1': `/api/status/site/${fx.site.key}`,
          '4.3': `/api/status/gsm/${fx.gsm.key}`,
          '4.5': `/api/status/reporting/gsm/${fx.gsm.key}`,
        }[name] ?? '';
      const res = await call(em, path, { token: tok, accept: 'application/xml' });
      await expectProblem(res, 406, 'not_acceptable');
    },
  );

  it('answers JSON to a browser-style Accept with */* on a JSON-only operation', async () => {
    const res = await call(em, `/api/status/gsm/${fx.gsm.key}`, {
      token: tok,
      accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8',
      query: { batchSize: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('honours q-values: JSON preferred over XML gives JSON, XML preferred gives XML', async () => {
    const json = await call(em, blocked(), {
      token: tok,
      accept: 'application/xml;q=0.2, application/json',
    });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const xml = await call(em, blocked(), {
      token: tok,
      accept: 'application/json;q=0.2, application/xml',
    });
    expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
  });

  it('answers 406 to an Accept that admits neither JSON nor XML', async () => {
    await expectProblem(
      await call(em, blocked(), { token: tok, accept: 'text/html' }),
      406,
      'not_acceptable',
    );
  });
});
