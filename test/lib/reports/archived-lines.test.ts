import { describe, expect, it } from 'vitest';
import {
  DnspUsageLine,
  GsmUsageLine,
  SiteUsageLine,
  StatusLine,
  usableLine,
  usableLines,
} from '../../../lib/reports/archived-lines.js';

const site = (fields: Record<string, unknown>) => ({
  Site: {
    SiteKey: 'ABCD-EFGH-IJKL-MNOP-QRST',
    SiteId: 'b3f6…',
    SiteName: 'Acme',
    LicenseType: 'Trial',
    ExpiryDate: '2027-01-31T00:00:00Z',
    TotalEndpoints: 12,
    ...fields,
  },
});

describe('Function: usableLines', () => {
  it('keeps a line whose optional fields are null, blank or of another type, with fallbacks', () => {
    const { lines, skipped } = usableLines(
      [site({ SiteName: null, LicenseType: 7, SiteId: '', ExpiryDate: 'soon' })],
      SiteUsageLine,
    );
    expect(skipped).toBe(0);
    expect(lines[0]?.Site).toEqual({
      SiteKey: 'ABCD-EFGH-IJKL-MNOP-QRST',
      SiteId: '',
      SiteName: '',
      LicenseType: '',
      ExpiryDate: null,
      TotalEndpoints: 12,
    });
  });

  it('normalises an instant in any of the service renderings to UTC with Z', () => {
    for (const [text, expected] of [
      ['2027-01-31T10:20:30', '2027-01-31T10:20:30.000Z'],
      ['2027-01-31T10:20:30.1234567Z', '2027-01-31T10:20:30.123Z'],
      ['2027-01-31T12:20:30+02:00', '2027-01-31T10:20:30.000Z'],
    ]) {
      expect(usableLine(site({ ExpiryDate: text }), SiteUsageLine)?.Site.ExpiryDate, text).toBe(
        expected,
      );
    }
  });

  it('skips and counts a line without what a report needs, keeping the others', () => {
    const { lines, skipped } = usableLines(
      [site({ TotalEndpoints: null }), site({ SiteKey: '' }), site({}), null, 'text'],
      SiteUsageLine,
    );
    expect(lines).toHaveLength(1);
    expect(skipped).toBe(4);
  });

  it('reads a GSM report without its console name, and refuses one without its totals', () => {
    const report = { GSM: { TotalEndpointsWithoutTrial: 3, TotalTrialEndpoints: 2 } };
    expect(usableLine(report, GsmUsageLine)?.GSM).toEqual({
      TotalEndpointsWithoutTrial: 3,
      TotalTrialEndpoints: 2,
      GSMConsoleName: null,
      ExpiryDate: null,
    });
    expect(usableLine({ GSM: { TotalTrialEndpoints: 2 } }, GsmUsageLine)).toBeUndefined();
  });

  it('leaves out a DNSP site without its key and reads the others', () => {
    const line = usableLine(
      { Sites: [{ SiteKey: null }, { SiteKey: 'K', DNSPEnabled: 'yes', TotalDNSPAgents: null }] },
      DnspUsageLine,
    );
    expect(line?.Sites).toEqual([null, { SiteKey: 'K', DNSPEnabled: false, TotalDNSPAgents: 0 }]);
  });

  it('needs the infection flag of a status entry: without it the entry is neither', () => {
    expect(usableLine({ MachineID: 'M', KC: 'K', BasicInfo: {} }, StatusLine)).toBeUndefined();
    expect(
      usableLine({ MachineID: 'M', KC: null, BasicInfo: { Infected: true } }, StatusLine),
    ).toEqual({ MachineID: 'M', KC: '', BasicInfo: { Infected: true } });
  });
});
