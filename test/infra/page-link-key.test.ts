import { beforeAll, describe, expect, it } from 'vitest';
import type { FunctionName } from '../../infra/functions.js';
import { arn, type Json, logicalId, ref, type Synth, synth } from './helpers.js';

let s: Synth;
beforeAll(() => {
  s = synth({ reportLinks: true });
});

const links = () => {
  const found = s.stack.reportLinks;
  if (!found) throw new Error('the report site is off');
  return found;
};
const props = (id: string): Json => s.template.toJSON().Resources[id]?.Properties;
const VIA_SECRETS_MANAGER = {
  StringEquals: {
    'kms:ViaService': {
      'Fn::Join': ['', ['secretsmanager.', { Ref: 'AWS::Region' }, '.amazonaws.com']],
    },
  },
};

describe('PageLinkKey: the key made at deploy time', () => {
  it('asks the key resource for the public key of version 1, kept in the stack secret', () => {
    const { key } = links();
    const [resourceId] = Object.keys(s.template.findResources('Custom::SkywatchPageLinkKey'));
    expect(props(resourceId ?? '')).toEqual({
      ServiceToken: {
        'Fn::GetAtt': [expect.stringMatching(/^PageLinkKeyProviderframeworkonEvent/), 'Arn'],
      },
      SecretArn: ref(key.secret),
      KeyVersion: '1',
    });
    expect(props(logicalId(key.publicKey)).PublicKeyConfig.EncodedKey).toEqual({
      'Fn::GetAtt': [resourceId, 'PublicKeyPem'],
    });
    expect(props(logicalId(key.keyGroup)).KeyGroupConfig.Items).toEqual([ref(key.publicKey)]);
  });

  it('starts the secret empty, encrypted with a rotating key of its own', () => {
    const { key } = links();
    expect(props(logicalId(key.secret))).toMatchObject({
      SecretString: '{}',
      KmsKeyId: arn(key.key),
    });
    expect(props(logicalId(key.key)).EnableKeyRotation).toBe(true);
  });

  it('rotates by a new public key resource when the key version is raised', () => {
    const rotated = synth({ reportLinks: true, reportLinkKeyVersion: 3 });
    const keys = Object.keys(rotated.template.findResources('AWS::CloudFront::PublicKey'));
    expect(keys).toEqual([expect.stringMatching(/^PageLinkKeyPublicKeyV3/)]);
    rotated.template.hasResourceProperties('Custom::SkywatchPageLinkKey', { KeyVersion: '3' });
  });

  it('lets the key handler read and write that secret, and nothing else', () => {
    const { key } = links();
    const policy = key.handler.role.node.tryFindChild('DefaultPolicy');
    const statements = props(logicalId(policy ?? key.handler.role)).PolicyDocument.Statement;
    expect(statements).toEqual([
      {
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Effect: 'Allow',
        Resource: arn(key.handler.logGroup),
      },
      {
        Action: [
          'secretsmanager:DescribeSecret',
          'secretsmanager:GetSecretValue',
          'secretsmanager:PutSecretValue',
          'secretsmanager:UpdateSecret',
          'secretsmanager:UpdateSecretVersionStage',
        ],
        Effect: 'Allow',
        Resource: ref(key.secret),
      },
    ]);
  });

  it('lets the link key decrypt for the signers and the handler, encrypt for the handler alone', () => {
    const { key } = links();
    const f = s.stack.functions;
    const [, , decrypt, encrypt] = props(logicalId(key.key)).KeyPolicy.Statement;
    expect(decrypt).toEqual({
      Action: 'kms:Decrypt',
      Condition: VIA_SECRETS_MANAGER,
      Effect: 'Allow',
      Principal: {
        AWS: [arn(f.infectionAlerter.role), arn(key.handler.role), arn(f.reportBuilder.role)],
      },
      Resource: '*',
    });
    expect(encrypt).toEqual({
      Action: ['kms:Encrypt', 'kms:GenerateDataKey*', 'kms:ReEncrypt*'],
      Condition: VIA_SECRETS_MANAGER,
      Effect: 'Allow',
      Principal: { AWS: arn(key.handler.role) },
      Resource: '*',
    });
  });

  it('lets the provider framework invoke the key handler only', () => {
    const policy = Object.entries(s.template.findResources('AWS::IAM::Policy')).find(([id]) =>
      id.startsWith('PageLinkKeyProviderRole'),
    )?.[1];
    const handler = arn(links().key.handler.function);
    expect(policy?.Properties.PolicyDocument.Statement.slice(1)).toEqual([
      {
        Action: 'lambda:InvokeFunction',
        Effect: 'Allow',
        Resource: [handler, { 'Fn::Join': ['', [handler, ':*']] }],
      },
      { Action: 'lambda:GetFunction', Effect: 'Allow', Resource: handler },
    ]);
  });
});

describe('PageLinkKey: the functions that sign links', () => {
  const env = (synthed: Synth, name: FunctionName): Record<string, Json> =>
    synthed.template.toJSON().Resources[logicalId(synthed.stack.functions[name].function)]
      .Properties.Environment.Variables;
  const linkEnv = (synthed: Synth, name: FunctionName) =>
    Object.fromEntries(
      Object.entries(env(synthed, name)).filter(([k]) => k.startsWith('PAGE_LINK_')),
    );

  it('gives the infection alerter and the report builder the site, key id, secret and days', () => {
    const { key, site } = links();
    for (const name of ['infectionAlerter', 'reportBuilder'] as const) {
      expect(linkEnv(s, name)).toEqual({
        PAGE_LINK_ORIGIN: {
          'Fn::Join': [
            '',
            ['https://', { 'Fn::GetAtt': [logicalId(site.distribution), 'DomainName'] }],
          ],
        },
        PAGE_LINK_KEY_PAIR_ID: ref(key.publicKey),
        PAGE_LINK_KEY_SECRET_ARN: ref(key.secret),
        PAGE_LINK_DAYS: '7',
      });
    }
    expect(
      linkEnv(synth({ reportLinks: true, reportLinkDays: 30 }), 'reportBuilder').PAGE_LINK_DAYS,
    ).toBe('30');
  });

  it('gives no other function the link settings', () => {
    const others: FunctionName[] = [
      'tokenRefresher',
      'reportFetcher',
      'archiveWorker',
      'blockedUrlAlerter',
      'cartCustomerWebhook',
      'alertNotifier',
    ];
    for (const name of others) expect(linkEnv(s, name), name).toEqual({});
  });

  it('lets only the two signers and the key handler read the private key secret', () => {
    const secret = JSON.stringify(ref(links().key.secret));
    const readers = Object.values(s.template.findResources('AWS::IAM::Policy'))
      .filter((p) =>
        p.Properties.PolicyDocument.Statement.some(
          (st: Json) =>
            st.Action.includes?.('secretsmanager:GetSecretValue') &&
            JSON.stringify(st.Resource).includes(secret),
        ),
      )
      .flatMap((p) => p.Properties.Roles.map((r: Json) => r.Ref))
      .sort();
    const f = s.stack.functions;
    expect(readers).toEqual(
      [f.infectionAlerter.role, f.reportBuilder.role, links().key.handler.role]
        .map(logicalId)
        .sort(),
    );
  });
});
