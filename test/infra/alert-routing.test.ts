import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../infra/config/resolve-settings.js';
import { SkywatchConfigError } from '../../infra/config/settings.js';
import { createApp } from '../../infra/skywatch-app.js';
import { DEFAULT_ROUTING, ROUTING_SCHEMA } from '../../lib/alerts/index.js';
import {
  cdkJsonContext,
  type Json,
  roleStatements,
  SETTINGS,
  type Synth,
  synth,
} from './helpers.js';

/** An MSP's document: one customer to its own channel and PSA company, one site nowhere. */
const DOCUMENT = {
  schema: ROUTING_SCHEMA,
  routes: [
    {
      name: 'acme',
      match: { site: ['AAAA-1111-2222-3333-4444'] },
      destinations: ['acme-slack', 'psa'],
      fields: { psaCompanyId: 42 },
    },
    { name: 'lab', match: { site: ['Test Lab'] }, destinations: [] },
  ],
  default: { destinations: ['slack', 'pagerduty'] },
};

/** The problems resolveSettings reports for these settings (none → []). */
function issues(settings: object): readonly string[] {
  try {
    resolveSettings(settings);
    return [];
  } catch (error) {
    if (error instanceof SkywatchConfigError) return error.issues;
    throw error;
  }
}

// Two synths for the file (a cold one is slow): the default document, and the MSP's.
let plain: Synth;
let msp: Synth;
beforeAll(() => {
  plain = synth();
  msp = synth({ alertRouting: DOCUMENT });
}, 120_000);

const parameterValue = (s: Synth) => {
  const [parameter] = Object.values(
    s.template.findResources('AWS::SSM::Parameter', {
      Properties: { Name: '/Skywatch/alert-routing' },
    }),
  ) as Json[];
  return JSON.parse(parameter.Properties.Value);
};

describe('Construct: AlertRouting (the routing document in SSM)', () => {
  it('creates one String parameter named after the stack, holding the default document', () => {
    // Two: this one and the maintenance windows beside it (test/infra/alert-mutes.test.ts).
    plain.template.resourceCountIs('AWS::SSM::Parameter', 2);
    plain.template.hasResourceProperties('AWS::SSM::Parameter', {
      Name: '/Skywatch/alert-routing',
      Type: 'String',
      Tier: 'Intelligent-Tiering',
    });
    expect(parameterValue(plain)).toEqual(DEFAULT_ROUTING);
  });

  it('starts the parameter with the document of the alertRouting setting', () => {
    expect(parameterValue(msp)).toEqual(DOCUMENT);
  });

  it('gives the infection alerter the parameter name and GetParameter on it (and the windows) alone', () => {
    const { infectionAlerter } = plain.stack.functions;
    const parameter = { Ref: Match.stringLikeRegexp('^AlertRoutingParameter') };
    plain.template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^Health alerts'),
      Environment: { Variables: Match.objectLike({ ALERT_ROUTING_PARAMETER: parameter }) },
    });
    const ssm = roleStatements(plain.template, infectionAlerter.role).filter((st) =>
      JSON.stringify(st.Action).includes('ssm:'),
    );
    const arn = (name: RegExp) => ({
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':ssm:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          ':parameter',
          { Ref: expect.stringMatching(name) },
        ],
      ],
    });
    // One statement (minimizePolicies merges the two grants): the windows' parameter beside it.
    expect(ssm).toEqual([
      {
        Action: 'ssm:GetParameter',
        Effect: 'Allow',
        Resource: [arn(/^AlertMutesParameter/), arn(/^AlertRoutingParameter/)],
      },
    ]);
  });

  it('lets no other function read SSM', () => {
    for (const [name, fn] of Object.entries(plain.stack.functions)) {
      if (name === 'infectionAlerter') continue;
      const statements = JSON.stringify(roleStatements(plain.template, fn.role));
      expect(statements, name).not.toContain('ssm:');
    }
  });

  it('outputs the parameter name, for put-parameter and the alerts commands', () => {
    plain.template.hasOutput('AlertRoutingParameter', {
      Value: { Ref: Match.stringLikeRegexp('^AlertRoutingParameter') },
    });
  });
});

describe('Setting: alertRouting (validated at synth)', () => {
  it('lists every problem of the document at once, each at its path', () => {
    const bad = {
      schema: ROUTING_SCHEMA,
      routes: [
        { name: 'acme', match: { kind: ['infectd'] }, destinations: ['Acme_Slack'] },
        { name: 'acme', match: {}, destinations: ['psa', 'psa'] },
        { name: 'x', match: { sites: ['A'] }, destinations: [] },
      ],
    };
    expect(issues({ ...SETTINGS, alertRouting: bad })).toEqual([
      expect.stringMatching(/^alertRouting\.routes\[0\]\.match\.kind\[0\] Invalid option/),
      expect.stringMatching(/^alertRouting\.routes\[0\]\.destinations\[0\] must be a destination/),
      expect.stringMatching(/^alertRouting\.routes\[1\]\.match must name at least one of/),
      'alertRouting.routes[1].destinations[1] repeats psa',
      'alertRouting.routes[2].match Unrecognized key: "sites"',
      expect.stringMatching(/^alertRouting\.default Invalid input/),
      'alertRouting.routes[1].name repeats the name of routes[0]',
    ]);
  });

  it('names the setting beside the others that are wrong', () => {
    expect(issues({ ...SETTINGS, logLevel: 'LOUD', alertRouting: { schema: 'v0' } })).toEqual([
      expect.stringMatching(/^logLevel must be one of/),
      expect.stringMatching(
        /^alertRouting\.schema Invalid input: expected "skywatch\.routing\/v1"/,
      ),
      expect.stringMatching(/^alertRouting\.default /),
    ]);
  });

  it('takes the document as JSON text from -c skywatch:alertRouting=…', () => {
    const app = new App({
      context: {
        ...cdkJsonContext(),
        'aws:cdk:bundling-stacks': [],
        'skywatch:alertRouting': JSON.stringify(DOCUMENT),
      },
    });
    expect(createApp(app).stack.settings.alertRouting).toEqual(DOCUMENT);
    expect(issues({ ...SETTINGS, alertRouting: '{"schema":' })).toEqual([
      expect.stringMatching(/^alertRouting is not JSON: /),
    ]);
  }, 120_000);

  it('fails the synth of the app with the document path named', () => {
    const app = new App({
      context: {
        ...cdkJsonContext(),
        'skywatch:alertRouting': JSON.stringify({ ...DOCUMENT, default: { destinations: [1] } }),
      },
    });
    expect(() => createApp(app)).toThrow(/alertRouting\.default\.destinations\[0\] Invalid input/);
  });
});
