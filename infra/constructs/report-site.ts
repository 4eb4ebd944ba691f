import { Aws, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { BUCKET_PREFIXES, type ReportBucket } from './report-bucket.js';

/**
 * The distribution's origin path: a link's path is the page's key without `pages/`
 * (lib/reports/page-links.ts makes the links the same way).
 */
export const REPORT_SITE_ORIGIN_PATH = `/${BUCKET_PREFIXES.pages.replace(/\/$/, '')}`;

/** The only objects the distribution may read: the daily pages, not the rest of `pages/`. */
export const REPORT_SITE_OBJECTS = `${BUCKET_PREFIXES.pages}daily/*`;

/**
 * What the daily page needs (lib/reports/daily-page.ts sets the same in a meta element): inline
 * styles and SVG, data: images, no script and no request; plus what only a header can say.
 */
export const REPORT_SITE_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface ReportSiteProps {
  /** The archive: the distribution reads its daily pages, decrypting with its key. */
  readonly archive: ReportBucket;
  /** The key group whose keys sign the links; every request must carry a valid signature. */
  readonly keyGroup: cloudfront.IKeyGroup;
  /** Days the distribution's access logs are kept. */
  readonly logExpirationDays: number;
  /** The operator's domain name for the links, with certificateArn. @default - *.cloudfront.net */
  readonly domainName?: string;
  /** ACM certificate in us-east-1 for domainName. @default - none */
  readonly certificateArn?: string;
}

/**
 * The daily pages for people without AWS access: CloudFront in front of the private archive
 * bucket through origin access control, serving only `pages/daily/` and only to signed URLs of
 * the key group, HTTPS only, with security headers and access logs.
 */
export class ReportSite extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly logBucket: s3.Bucket;
  /** Where links start: `https://` and the operator's domain or the distribution's. */
  readonly origin: string;

  constructor(scope: Construct, id: string, props: ReportSiteProps) {
    super(scope, id);
    if ((props.domainName === undefined) !== (props.certificateArn === undefined)) {
      throw new Error(
        'ReportSite: domainName and certificateArn are given together or not at all.',
      );
    }
    const { bucket, key } = props.archive;

    this.logBucket = new s3.Bucket(this, 'Logs', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      // CloudFront's standard logs are delivered with an ACL, which BucketOwnerEnforced refuses.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      removalPolicy: RemovalPolicy.RETAIN,
      serverAccessLogsBucket: props.archive.accessLogBucket,
      serverAccessLogsPrefix: 'report-site-logs/',
      lifecycleRules: [
        { id: 'expire-report-site-logs', expiration: Duration.days(props.logExpirationDays) },
      ],
    });

    const oac = new cloudfront.S3OriginAccessControl(this, 'OriginAccess', {
      description: 'Skywatch report site: signed requests to the archive bucket',
    });
    // Not withOriginAccessControl: it grants the whole bucket; the policies below name the
    // daily pages only.
    const origin = origins.S3BucketOrigin.withBucketDefaults(bucket, {
      originPath: REPORT_SITE_ORIGIN_PATH,
      originAccessControlId: oac.originAccessControlId,
    });
    const behavior = (cachePolicy: cloudfront.ICachePolicy): cloudfront.BehaviorOptions => ({
      origin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
      cachedMethods: cloudfront.CachedMethods.CACHE_GET_HEAD,
      compress: true,
      cachePolicy,
      responseHeadersPolicy: this.headers(),
      trustedKeyGroups: [props.keyGroup],
    });
    const certificate = props.certificateArn
      ? acm.Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn)
      : undefined;
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Skywatch daily report pages (signed links)',
      defaultBehavior: behavior(this.cachePolicy('PageCache', Duration.hours(1), Duration.days(1))),
      additionalBehaviors: {
        // The GSM's newest page is rewritten each day under the same key: cached briefly.
        'daily/*/latest/*': behavior(
          this.cachePolicy('LatestCache', Duration.minutes(1), Duration.minutes(5)),
        ),
      },
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'report-site/',
      ...(certificate && props.domainName
        ? {
            certificate,
            domainNames: [props.domainName],
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
    });
    this.origin = `https://${props.domainName ?? this.distribution.distributionDomainName}`;

    bucket.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'ReportSiteReadsDailyPages',
        principals: [new iam.ServicePrincipal('cloudfront.amazonaws.com')],
        actions: ['s3:GetObject'],
        resources: [bucket.arnForObjects(REPORT_SITE_OBJECTS)],
        conditions: { StringEquals: { 'AWS:SourceArn': this.distributionArn() } },
      }),
    );
    // The key's policy cannot name this distribution: key → bucket → distribution → key would
    // be a cycle (aws-cdk-lib's withOriginAccessControl meets the same). It names the account's
    // distributions; the bucket policy above, which S3 checks first, names this one alone.
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'ReportSiteDecryptsDailyPages',
        principals: [new iam.ServicePrincipal('cloudfront.amazonaws.com')],
        actions: ['kms:Decrypt'],
        resources: ['*'],
        conditions: {
          ArnLike: {
            'AWS:SourceArn': `arn:${Aws.PARTITION}:cloudfront::${Aws.ACCOUNT_ID}:distribution/*`,
          },
        },
      }),
    );
    this.acknowledge(certificate !== undefined);
  }

  private distributionArn(): string {
    return `arn:${Aws.PARTITION}:cloudfront::${Aws.ACCOUNT_ID}:distribution/${this.distribution.distributionId}`;
  }

  private cachePolicy(id: string, ttl: Duration, maxTtl: Duration): cloudfront.CachePolicy {
    // The signing parameters stay out of the cache key: every link to a page shares its copy.
    return new cloudfront.CachePolicy(this, id, {
      comment: `Skywatch report site: ${ttl.toHumanString()} by default`,
      defaultTtl: ttl,
      minTtl: Duration.seconds(0),
      maxTtl,
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.none(),
      headerBehavior: cloudfront.CacheHeaderBehavior.none(),
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
  }

  private headersPolicy?: cloudfront.ResponseHeadersPolicy;

  private headers(): cloudfront.ResponseHeadersPolicy {
    this.headersPolicy ??= new cloudfront.ResponseHeadersPolicy(this, 'Headers', {
      comment: 'Skywatch report site: security headers that match the daily page',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: REPORT_SITE_CSP, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        // The page's URL is a credential until it expires: it goes nowhere else.
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER,
          override: true,
        },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(365),
          includeSubdomains: true,
          override: true,
        },
      },
      customHeadersBehavior: {
        customHeaders: [
          // Not kept by browsers or proxies: a shared machine keeps no copy of a customer's page.
          { header: 'Cache-Control', value: 'private, no-store', override: true },
          { header: 'X-Robots-Tag', value: 'noindex, nofollow', override: true },
        ],
      },
      // The archive's key ARN and versioning say nothing a reader needs.
      removeHeaders: [
        'x-amz-server-side-encryption',
        'x-amz-server-side-encryption-aws-kms-key-id',
        'x-amz-server-side-encryption-bucket-key-enabled',
        'x-amz-version-id',
        'x-amz-meta-report-day',
      ],
    });
    return this.headersPolicy;
  }

  private acknowledge(ownCertificate: boolean): void {
    const findings: [string, string][] = [
      [
        'AwsSolutions-CFR1',
        'Technicians and their customers open the pages from wherever they work; every request needs a signed URL that expires within days, so a country list would only lock out the people the links are for.',
      ],
      [
        'AwsSolutions-CFR2',
        'CloudFront refuses every request without a valid signature of the key group before it reaches the origin, and the site serves static pages for GET and HEAD only; a web ACL would add per-request cost and guard nothing more.',
      ],
    ];
    if (!ownCertificate)
      findings.push([
        'AwsSolutions-CFR4',
        "The *.cloudfront.net certificate accepts TLSv1 whatever the distribution asks; operators who need TLS 1.2 as the minimum set reportLinkDomain and reportLinkCertificateArn, and the distribution then uses TLSv1.2_2021 (docs/operations.md, 'Report links').",
      ]);
    for (const [id, reason] of findings)
      Validations.of(this.distribution).acknowledge({ id, reason });
  }
}
