import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  REPORT_SITE_OBJECTS,
  REPORT_SITE_ORIGIN_PATH,
} from '../../infra/constructs/report-site.js';
import { createApp } from '../../infra/skywatch-app.js';
import { generatePageLinkKey } from '../../lib/links/page-link-key.js';
import { PAGES_PREFIX, signPageLink } from '../../lib/links/page-links.js';
import { dailyPageKey } from '../../lib/reports/page-keys.js';
import { cdkJsonContext, type Json, logicalId, SETTINGS, type Synth, synth } from './helpers.js';

// What the report site lets CloudFront do in the archive, and what cdk-nag says of it
// (report-site.test.ts asserts the distribution itself).
let on: Synth;
let off: Synth;
beforeAll(() => {
  on = synth({ reportLinks: true });
  off = synth();
});

const resources = (s: Synth): Record<string, Json> => s.template.toJSON().Resources;
const site = () => {
  const links = on.stack.reportLinks;
  if (!links) throw new Error('the report site is off');
  return links;
};
const PARTITION_ACCOUNT = [
  'arn:',
  { Ref: 'AWS::Partition' },
  ':cloudfront::',
  { Ref: 'AWS::AccountId' },
];

describe('ReportSite: the archive policies', () => {
  const statementsAdded = (id: string) => {
    const doc = (s: Synth) => {
      const p = resources(s)[id].Properties;
      return (p.PolicyDocument ?? p.KeyPolicy).Statement.map((x: Json) => JSON.stringify(x));
    };
    const before = new Set(doc(off));
    return doc(on)
      .filter((x: string) => !before.has(x))
      .map((x: string) => JSON.parse(x));
  };

  it('lets this distribution alone read the daily pages, nothing else of the archive', () => {
    const policy = Object.keys(on.template.findResources('AWS::S3::BucketPolicy')).find((id) =>
      id.startsWith('ArchiveBucketPolicy'),
    );
    expect(statementsAdded(policy ?? '')).toEqual([
      {
        Action: 's3:GetObject',
        Condition: {
          StringEquals: {
            'AWS:SourceArn': {
              'Fn::Join': [
                '',
                [
                  ...PARTITION_ACCOUNT,
                  ':distribution/',
                  { Ref: logicalId(site().site.distribution) },
                ],
              ],
            },
          },
        },
        Effect: 'Allow',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Resource: {
          'Fn::Join': [
            '',
            [{ 'Fn::GetAtt': [logicalId(on.stack.archive.bucket), 'Arn'] }, '/pages/daily/*'],
          ],
        },
        Sid: 'ReportSiteReadsDailyPages',
      },
    ]);
  });

  it("lets CloudFront decrypt with the archive key for the account's distributions only", () => {
    expect(statementsAdded(logicalId(on.stack.archive.key))).toEqual([
      {
        Action: 'kms:Decrypt',
        Condition: {
          ArnLike: {
            'AWS:SourceArn': { 'Fn::Join': ['', [...PARTITION_ACCOUNT, ':distribution/*']] },
          },
        },
        Effect: 'Allow',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Resource: '*',
        Sid: 'ReportSiteDecryptsDailyPages',
      },
    ]);
  });

  it('serves a signed link to a daily page from the key it was made for', () => {
    // The distribution prefixes the origin path to the link's path: that is the page's key.
    const key = dailyPageKey('ABCD-EFGH-IJKL-MNOP-QRST', '2026-06-14');
    const { privateKey } = generatePageLinkKey();
    const link = signPageLink(key, {
      origin: 'https://d1.cloudfront.net',
      keyPairId: 'K',
      privateKey,
      days: 1,
    });
    const path = decodeURIComponent(new URL(link.url).pathname);
    expect(`${REPORT_SITE_ORIGIN_PATH}${path}`.slice(1)).toBe(key);
    expect(REPORT_SITE_ORIGIN_PATH).toBe(`/${PAGES_PREFIX.replace(/\/$/, '')}`);
    expect(key.startsWith(REPORT_SITE_OBJECTS.replace(/\*$/, ''))).toBe(true);
  });
});

/** Every acknowledged rule, as `<id>@<path> <reason>`. */
function acknowledgements(scope: IConstruct): string[] {
  const found: string[] = [];
  const walk = (c: IConstruct) => {
    for (const entry of c.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>))
        found.push(`${id.replace(/^Annotation::/, '')}@${c.node.path} ${reason}`);
    }
    c.node.children.forEach(walk);
  };
  walk(scope);
  return found;
}

describe('ReportSite: cdk-nag', () => {
  const findings = (app: App) =>
    [new AwsSolutionsChecks(), new ServerlessChecks()].flatMap((pack) =>
      pack
        .validateScope(app)
        .violations.map(
          (v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
        ),
    );

  it('finds nothing unacknowledged, with the default certificate or an own domain', () => {
    expect(findings(on.app)).toEqual([]);
    const own = synth({
      reportLinks: true,
      reportLinkDomain: 'reports.example.com',
      reportLinkCertificateArn: 'arn:aws:acm:us-east-1:111122223333:certificate/0a1b',
    });
    expect(findings(own.app)).toEqual([]);
  });

  it('acknowledges only what the site makes inevitable, each with a reason', () => {
    const added = acknowledgements(on.app).filter((a) => !acknowledgements(off.app).includes(a));
    expect(added.map((a) => a.split(' ')[0]).sort()).toEqual(
      [
        'AwsSolutions-CFR1 ReportSite/Distribution',
        'AwsSolutions-CFR2 ReportSite/Distribution',
        'AwsSolutions-CFR4 ReportSite/Distribution',
        'AwsSolutions-IAM5[Action::kms:GenerateDataKey*] PageLinkKey/Handler/Role',
        'AwsSolutions-IAM5[Action::kms:ReEncrypt*] PageLinkKey/Handler/Role',
        `AwsSolutions-IAM5[Resource::<${logicalId(site().key.handler.function)}.Arn>:*] PageLinkKey/ProviderRole`,
        'AwsSolutions-IAM5[Resource::*] PageLinkKey/Handler/TracingPolicy',
        'AwsSolutions-SMG4 PageLinkKey/PrivateKey',
        'Serverless-LambdaDLQ PageLinkKey/Handler/Function',
        'Serverless-LambdaDLQ PageLinkKey/Provider/framework-onEvent',
        'Serverless-LambdaDefaultMemorySize PageLinkKey/Provider/framework-onEvent',
        'Serverless-LambdaTracing PageLinkKey/Provider/framework-onEvent',
      ]
        .map((a) => a.replace(' ', '@Skywatch/'))
        .sort(),
    );
    for (const a of added) expect(a.split(' ').slice(1).join(' ').length, a).toBeGreaterThan(60);
    // With the operator's certificate CloudFront enforces TLS 1.2: nothing to acknowledge.
    const own = synth({
      reportLinks: true,
      reportLinkDomain: 'reports.example.com',
      reportLinkCertificateArn: 'arn:aws:acm:us-east-1:111122223333:certificate/0a1b',
    });
    expect(acknowledgements(own.app).filter((a) => a.startsWith('AwsSolutions-CFR4'))).toEqual([]);
  });

  it('synthesizes the app with the report site and the checks on', () => {
    const app = new App({
      context: {
        ...cdkJsonContext(),
        skywatch: { ...SETTINGS, reportLinks: true },
        'aws:cdk:bundling-stacks': [],
      },
    });
    createApp(app);
    expect(() => app.synth()).not.toThrow();
  });
});
