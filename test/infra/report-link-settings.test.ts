import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { settingsFromContext } from '../../infra/config/context.js';
import { resolveSettings } from '../../infra/config/resolve-settings.js';
import { SkywatchConfigError } from '../../infra/config/settings.js';
import { cdkJsonContext, SETTINGS } from './helpers.js';

const CERT = 'arn:aws:acm:us-east-1:111122223333:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789';

/** The problems resolveSettings reports (none → []). */
function issues(settings: object): readonly string[] {
  try {
    resolveSettings({ ...SETTINGS, ...settings });
    return [];
  } catch (error) {
    if (error instanceof SkywatchConfigError) return error.issues;
    throw error;
  }
}

describe('resolveSettings: report links', () => {
  it('turns the report site on by default, links valid 7 days, key version 1, no own domain', () => {
    const { reportLinks: _off, ...deployed } = SETTINGS;
    const s = resolveSettings(deployed);
    expect([s.reportLinks, s.reportLinkDays, s.reportLinkKeyVersion]).toEqual([true, 7, 1]);
    expect([s.reportLinkDomain, s.reportLinkCertificateArn]).toEqual([undefined, undefined]);
  });

  it('takes 1 to 90 days, whole days only', () => {
    expect(issues({ reportLinkDays: 1 })).toEqual([]);
    expect(issues({ reportLinkDays: 90 })).toEqual([]);
    for (const days of [0, 91, 7.5, '7'])
      expect(issues({ reportLinkDays: days })).toEqual([
        `reportLinkDays must be an integer from 1 to 90; got ${typeof days === 'string' ? `'${days}'` : days}`,
      ]);
  });

  it('refuses a key version below 1', () => {
    expect(issues({ reportLinkKeyVersion: 0 })).toEqual([
      'reportLinkKeyVersion must be an integer from 1 to 1000000; got 0',
    ]);
  });

  it('takes an own domain with its us-east-1 certificate, the name normalised', () => {
    const s = resolveSettings({
      ...SETTINGS,
      reportLinkDomain: 'Reports.Example.COM.',
      reportLinkCertificateArn: CERT,
    });
    expect([s.reportLinkDomain, s.reportLinkCertificateArn]).toEqual(['reports.example.com', CERT]);
  });

  it('refuses a domain without its certificate, and a certificate without its domain', () => {
    const together =
      'must be set together with the other: a domain name for the report links and its certificate';
    expect(issues({ reportLinkDomain: 'reports.example.com' })).toEqual([
      `reportLinkCertificateArn ${together}`,
    ]);
    expect(issues({ reportLinkCertificateArn: CERT })).toEqual([`reportLinkDomain ${together}`]);
  });

  it('refuses a malformed domain and a certificate outside us-east-1, both at once', () => {
    expect(
      issues({
        reportLinkDomain: 'https://reports.example.com/',
        reportLinkCertificateArn: CERT.replace('us-east-1', 'eu-west-1'),
      }),
    ).toEqual([
      "reportLinkDomain must be a domain name such as reports.example.com; got 'https://reports.example.com/'",
      `reportLinkCertificateArn must be an ACM certificate ARN in us-east-1 (CloudFront reads certificates there only); got '${CERT.replace('us-east-1', 'eu-west-1')}'`,
    ]);
  });

  it('reads the switch and the days from -c overrides', () => {
    const app = new App({
      context: {
        ...cdkJsonContext(),
        'skywatch:reportLinks': 'false',
        'skywatch:reportLinkDays': '14',
        'skywatch:reportLinkDomain': 'reports.example.com',
      },
    });
    expect(settingsFromContext(app.node)).toMatchObject({
      reportLinks: false,
      reportLinkDays: 14,
      reportLinkDomain: 'reports.example.com',
    });
  });
});
