import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPORT_SITE_CSP } from '../../infra/constructs/report-site.js';
import { PAGE_CSP } from '../../lib/reports/daily-page.js';
import { type Json, logicalId, type Synth, synth } from './helpers.js';

// The report site is on by default; the other infra suites describe the stack without it
// (helpers.ts), and this one asserts exactly what switching it on adds and changes.
let on: Synth;
let off: Synth;
beforeAll(() => {
  on = synth({ reportLinks: true });
  off = synth();
});

const resources = (s: Synth): Record<string, Json> => s.template.toJSON().Resources;
/** The properties of the one resource of a type. */
const only = (s: Synth, type: string): Json => {
  const found = Object.values(s.template.findResources(type));
  expect(found, type).toHaveLength(1);
  return found[0]?.Properties;
};
const distribution = () => only(on, 'AWS::CloudFront::Distribution').DistributionConfig;
const site = () => {
  const links = on.stack.reportLinks;
  if (!links) throw new Error('the report site is off');
  return links;
};
describe('ReportSite: the switch', () => {
  it('creates no distribution, key or key resource, and gives no function a link, when off', () => {
    for (const type of [
      'AWS::CloudFront::Distribution',
      'AWS::CloudFront::PublicKey',
      'AWS::CloudFront::KeyGroup',
      'Custom::SkywatchPageLinkKey',
    ])
      off.template.resourceCountIs(type, 0);
    expect(JSON.stringify(off.template.toJSON())).not.toContain('PAGE_LINK_');
    expect(Object.keys(off.template.toJSON().Outputs)).not.toContain('ReportSiteDomain');
  });

  it('changes only the archive policies, its key and the two functions that sign links', () => {
    const before = resources(off);
    const after = resources(on);
    const changed = Object.keys(before).filter(
      (id) => JSON.stringify(before[id]) !== JSON.stringify(after[id]),
    );
    const { archive, functions } = on.stack;
    const signers = [functions.infectionAlerter, functions.reportBuilder];
    const policyOf = (c: IConstruct | undefined) => {
      if (!c) throw new Error('no policy');
      return logicalId(c);
    };
    expect(changed.sort()).toEqual(
      [
        policyOf(archive.bucket.policy),
        policyOf(archive.accessLogBucket.policy),
        logicalId(archive.key),
        ...signers.map((f) => logicalId(f.function)),
        ...signers.map((f) => policyOf(f.role.node.tryFindChild('DefaultPolicy'))),
      ].sort(),
    );
  });

  it('outputs the distribution domain and the private key secret', () => {
    const outputs = on.template.toJSON().Outputs;
    expect(outputs.ReportSiteDomain.Value).toEqual({
      'Fn::GetAtt': [logicalId(site().site.distribution), 'DomainName'],
    });
    expect(outputs.ReportLinkKeySecretArn.Value).toEqual({ Ref: logicalId(site().key.secret) });
  });
});

describe('ReportSite: the distribution', () => {
  it('reads the archive bucket through origin access control, under pages/ only', () => {
    const [origin] = distribution().Origins;
    expect(origin).toEqual({
      DomainName: { 'Fn::GetAtt': [logicalId(on.stack.archive.bucket), 'RegionalDomainName'] },
      Id: expect.any(String),
      OriginAccessControlId: { 'Fn::GetAtt': [expect.any(String), 'Id'] },
      OriginPath: '/pages',
      S3OriginConfig: { OriginAccessIdentity: '' },
    });
    on.template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: {
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      },
    });
  });

  it('answers only signed HTTPS GET and HEAD requests, on every path', () => {
    const config = distribution();
    const behaviors = [config.DefaultCacheBehavior, ...config.CacheBehaviors];
    expect(behaviors).toHaveLength(2);
    for (const b of behaviors) {
      expect(b.ViewerProtocolPolicy).toBe('redirect-to-https');
      expect(b.AllowedMethods).toEqual(['GET', 'HEAD']);
      expect(b.TrustedKeyGroups).toEqual([{ Ref: logicalId(site().key.keyGroup) }]);
      expect(b.ResponseHeadersPolicyId).toEqual({
        Ref: expect.stringMatching(/^ReportSiteHeaders/),
      });
      expect(b.TrustedSigners).toBeUndefined();
    }
  });

  it("caches the GSM's latest page briefly, a day's page longer, signatures out of the key", () => {
    const config = distribution();
    const ttl = (ref: Json) => {
      const policy = resources(on)[ref.Ref].Properties.CachePolicyConfig;
      expect(policy.ParametersInCacheKeyAndForwardedToOrigin.QueryStringsConfig).toEqual({
        QueryStringBehavior: 'none',
      });
      return [policy.DefaultTTL, policy.MaxTTL];
    };
    const [latest] = config.CacheBehaviors;
    expect(latest.PathPattern).toBe('daily/*/latest/*');
    expect(ttl(latest.CachePolicyId)).toEqual([60, 300]);
    expect(ttl(config.DefaultCacheBehavior.CachePolicyId)).toEqual([3600, 86_400]);
  });

  it('writes standard access logs to a bucket of its own, logged and expiring like the others', () => {
    const logs = site().site.logBucket;
    expect(distribution().Logging).toEqual({
      Bucket: { 'Fn::GetAtt': [logicalId(logs), 'RegionalDomainName'] },
      Prefix: 'report-site/',
    });
    const bucket = resources(on)[logicalId(logs)].Properties;
    expect(bucket.OwnershipControls.Rules).toEqual([{ ObjectOwnership: 'BucketOwnerPreferred' }]);
    expect(bucket.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({ ExpirationInDays: 90, Status: 'Enabled' }),
    ]);
    expect(bucket.LoggingConfiguration.DestinationBucketName).toEqual({
      Ref: logicalId(on.stack.archive.accessLogBucket),
    });
  });

  it('uses the default certificate, acknowledged, unless the operator brings a domain', () => {
    expect(distribution().ViewerCertificate).toBeUndefined();
    const arn = 'arn:aws:acm:us-east-1:111122223333:certificate/0a1b2c3d-4e5f';
    const own = synth({
      reportLinks: true,
      reportLinkDomain: 'reports.example.com',
      reportLinkCertificateArn: arn,
    });
    const config = only(own, 'AWS::CloudFront::Distribution').DistributionConfig;
    expect(config.Aliases).toEqual(['reports.example.com']);
    expect(config.ViewerCertificate).toEqual({
      AcmCertificateArn: arn,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    const env = Object.values(own.template.findResources('AWS::Lambda::Function')).map(
      (f) => f.Properties.Environment?.Variables?.PAGE_LINK_ORIGIN,
    );
    expect(env.filter(Boolean)).toEqual([
      'https://reports.example.com',
      'https://reports.example.com',
    ]);
  });
});

describe('ReportSite: headers', () => {
  const headers = () =>
    only(on, 'AWS::CloudFront::ResponseHeadersPolicy').ResponseHeadersPolicyConfig;

  it("allows everything the page's own policy allows, and nothing more", () => {
    const directives = (csp: string) => csp.split(';').map((d) => d.trim());
    expect(headers().SecurityHeadersConfig.ContentSecurityPolicy).toEqual({
      ContentSecurityPolicy: REPORT_SITE_CSP,
      Override: true,
    });
    const header = directives(REPORT_SITE_CSP);
    for (const d of directives(PAGE_CSP)) expect(header).toContain(d);
    // What the header adds only narrows: none of it is a source the page could load from.
    const added = header.filter((d) => !directives(PAGE_CSP).includes(d));
    for (const d of added) expect(d).toMatch(/'none'$/);
  });

  it('sends HSTS, nosniff, DENY and no referrer, and keeps the page out of caches and indexes', () => {
    const config = headers();
    expect(config.SecurityHeadersConfig).toMatchObject({
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
      StrictTransportSecurity: { AccessControlMaxAgeSec: 31_536_000, Override: true },
    });
    expect(config.CustomHeadersConfig.Items).toEqual([
      { Header: 'Cache-Control', Override: true, Value: 'private, no-store' },
      { Header: 'X-Robots-Tag', Override: true, Value: 'noindex, nofollow' },
    ]);
    expect(config.RemoveHeadersConfig.Items).toContainEqual({
      Header: 'x-amz-server-side-encryption-aws-kms-key-id',
    });
  });
});
