import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BLOCKED_URLS_XML,
  buildXml,
  CART_REQUEST_XML,
  CART_RESPONSE_XML,
  DNSP_REPORT_XML,
  parseXml,
  SchemaError,
  type XmlModel,
} from '../../lib/index.js';

const NS = 'xmlns:i="http://www.w3.org/2001/XMLSchema-instance"';
const text = fc.string({ maxLength: 20 });
const name = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() === s && s !== '');
const int = fc.integer({ min: -1_000_000, max: 1_000_000 });
const datetime = fc
  .date({
    min: new Date('2000-01-01T00:00:00Z'),
    max: new Date('2099-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z'));

const blockedUrls = fc.record({
  IncludeDeactivated: fc.boolean(),
  IncludeHidden: fc.boolean(),
  StartDate: datetime,
  EndDate: datetime,
  DatedCounts: fc.array(fc.record({ Date: datetime, Count: int }), { maxLength: 5 }),
});

const reportInfo = fc.record({
  Count: int,
  SiteKeyFilter: fc.option(text, { nil: null }),
  ReportType: text,
  EffectiveDate: datetime,
  GSMKey: text,
});
const dnspReport = fc.record({
  ReportInfo: reportInfo,
  Sites: fc.array(
    fc.record({
      SiteId: fc.uuid(),
      SiteKey: text,
      SiteName: text,
      SiteLicenseType: text,
      SiteExpiryDate: datetime,
      SiteState: text,
      SiteStateChangedDate: datetime,
      DNSPEnabled: fc.boolean(),
      DNSPLicenseType: text,
      DNSPExpiryDate: datetime,
      TotalDNSPDevicesProxy: int,
      TotalDNSPDevicesActual: int,
      TotalDNSPAgentlessRequests: int,
      TotalDNSPAgents: int,
    }),
    { maxLength: 4 },
  ),
});

const customerInput = fc.record(
  {
    FirstName: name,
    LastName: name,
    Address1: name,
    Address2: fc.option(text, { nil: null }),
    City: name,
    PostalCode: name,
    State: text,
    Country: fc.constantFrom(
      'US',
      'GB',
      'DE',
      'FR',
      'JP',
      'BR',
      'IN',
      'ZA',
      'AU',
      'CA',
      'NZ',
      'MX',
    ),
    CustomerEmail: fc.constantFrom('a@b.de', 'first.last@example.com'),
    CompanyName: text,
    CompanyTypeId: fc.nat(),
    ExternalCustomerKey: text,
    OptIn: fc.boolean(),
  },
  {
    requiredKeys: [
      'FirstName',
      'LastName',
      'Address1',
      'City',
      'PostalCode',
      'Country',
      'CustomerEmail',
    ],
  },
);
const cartRequest = fc.record(
  { Shipping: customerInput, Reseller: customerInput },
  { requiredKeys: ['Shipping'] },
);

const customerRecord = (typeId: number) =>
  fc.record({
    FirstName: text,
    LastName: text,
    Address1: text,
    Address2: fc.option(text, { nil: null }),
    City: text,
    PostalCode: text,
    State: text,
    Country: text,
    CustomerEmail: text,
    CompanyName: text,
    ExternalCustomerKey: text,
    OptIn: fc.boolean(),
    VatId: text,
    CustomerTypeId: fc.constant(typeId),
    CustomerTypeDescription: text,
  });
const cartResponse = fc.record(
  { Billing: customerRecord(1), Shipping: customerRecord(2), Reseller: customerRecord(3) },
  { requiredKeys: ['Billing', 'Shipping'] },
);

describe('Function: buildXml / parseXml', () => {
  it.each([
    ['GetBlockedURLsCountsResponse', BLOCKED_URLS_XML, blockedUrls],
    ['UsageReportSite_DNSP', DNSP_REPORT_XML, dnspReport],
    ['AddCustomersToCartRequestServiceModel', CART_REQUEST_XML, cartRequest],
    ['AddCustomersToCartResponseServiceModel', CART_RESPONSE_XML, cartResponse],
  ] as const)('round-trips random valid %s models', (_root, model, arbitrary) => {
    fc.assert(
      fc.property(arbitrary as fc.Arbitrary<unknown>, (value) => {
        expect(parseXml(model as XmlModel, buildXml(model, value))).toEqual(value);
      }),
      { numRuns: 150 },
    );
  });

  it('writes the DataContract shape: root, item elements, nil markers', () => {
    const xml = buildXml(BLOCKED_URLS_XML, {
      IncludeDeactivated: false,
      IncludeHidden: true,
      StartDate: '2026-06-12T00:00:00Z',
      EndDate: '2026-06-15T12:00:00Z',
      DatedCounts: [{ Date: '2026-06-15T00:00:00Z', Count: 7 }],
    });
    expect(xml).toBe(
      `<?xml version="1.0" encoding="utf-8"?><GetBlockedURLsCountsResponse ${NS}><IncludeDeactivated>false</IncludeDeactivated><IncludeHidden>true</IncludeHidden><StartDate>2026-06-12T00:00:00Z</StartDate><EndDate>2026-06-15T12:00:00Z</EndDate><DatedCounts><GetBlockedURLsCountsResponseDatedCount><Date>2026-06-15T00:00:00Z</Date><Count>7</Count></GetBlockedURLsCountsResponseDatedCount></DatedCounts></GetBlockedURLsCountsResponse>`,
    );
    const cart = buildXml(CART_REQUEST_XML, { Shipping: { FirstName: 'A & B', Address2: null } });
    expect(cart).toContain('<Address2 i:nil="true"/>');
    expect(cart).toContain('<FirstName>A &amp; B</FirstName>');
    expect(cart).toContain(`<AddCustomersToCartRequestServiceModel ${NS}>`);
  });

  it('reads nil markers with or without a value, empty elements and unknown fields', () => {
    const xml = `<?xml version="1.0"?><UsageReportSite_DNSP ${NS}><ReportInfo><Count>0</Count><SiteKeyFilter i:nil></SiteKeyFilter><ReportType>DevicesSeen</ReportType><EffectiveDate>2026-06-13T00:00:00Z</EffectiveDate><GSMKey>K</GSMKey><Extra>x</Extra></ReportInfo><Sites/></UsageReportSite_DNSP>`;
    expect(parseXml(DNSP_REPORT_XML, xml)).toEqual({
      ReportInfo: {
        Count: 0,
        SiteKeyFilter: null,
        ReportType: 'DevicesSeen',
        EffectiveDate: '2026-06-13T00:00:00Z',
        GSMKey: 'K',
        Extra: 'x',
      },
      Sites: [],
    });
    const nil = xml.replace(
      '<SiteKeyFilter i:nil></SiteKeyFilter>',
      '<SiteKeyFilter i:nil="true"/>',
    );
    expect(parseXml(DNSP_REPORT_XML, nil).ReportInfo.SiteKeyFilter).toBeNull();
  });

  it('raises SchemaError with the field path for a wrong value, a wrong root or broken XML', () => {
    const bad = `<GetBlockedURLsCountsResponse ${NS}><IncludeDeactivated>false</IncludeDeactivated><IncludeHidden>false</IncludeHidden><StartDate>2026-06-12T00:00:00Z</StartDate><EndDate>2026-06-15T00:00:00Z</EndDate><DatedCounts><GetBlockedURLsCountsResponseDatedCount><Date>2026-06-15T00:00:00Z</Date><Count>many</Count></GetBlockedURLsCountsResponseDatedCount></DatedCounts></GetBlockedURLsCountsResponse>`;
    expect(() => parseXml(BLOCKED_URLS_XML, bad)).toThrow(SchemaError);
    try {
      parseXml(BLOCKED_URLS_XML, bad);
    } catch (error) {
      expect((error as SchemaError).path).toBe('DatedCounts[0].Count');
    }
    expect(() => parseXml(BLOCKED_URLS_XML, '<Other/>')).toThrow(
      /no GetBlockedURLsCountsResponse root/,
    );
    expect(() => parseXml(BLOCKED_URLS_XML, '<GetBlockedURLsCountsResponse><a>')).toThrow(
      /not well-formed/,
    );
  });
});
