import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { NO_MUTES } from '../../lib/alerts/index.js';
import { type Json, roleStatements, type Synth, synth } from './helpers.js';

let s: Synth;
beforeAll(() => {
  s = synth();
}, 120_000);

describe('Construct: AlertMutes (the maintenance windows in SSM)', () => {
  it('creates a String parameter beside the routing one, holding no window', () => {
    const found = s.template.findResources('AWS::SSM::Parameter', {
      Properties: { Name: '/Skywatch/alert-mutes' },
    });
    const [parameter] = Object.values(found) as Json[];
    expect(parameter?.Properties).toMatchObject({ Type: 'String', Tier: 'Intelligent-Tiering' });
    expect(JSON.parse(String(parameter?.Properties?.Value))).toEqual(NO_MUTES);
    s.template.hasOutput('AlertMutesParameter', {});
  });

  it('gives the infection alerter the name and GetParameter on it, and nothing more in SSM', () => {
    const { infectionAlerter } = s.stack.functions;
    s.template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^Health alerts'),
      Environment: {
        Variables: Match.objectLike({
          ALERT_MUTES_PARAMETER: { Ref: Match.stringLikeRegexp('^AlertMutesParameter') },
        }),
      },
    });
    const ssm = roleStatements(s.template, infectionAlerter.role).filter((st) =>
      JSON.stringify(st.Action).includes('ssm:'),
    );
    const text = JSON.stringify(ssm);
    expect(ssm.every((st) => st.Action === 'ssm:GetParameter')).toBe(true);
    expect(text).toMatch(/"Ref":"AlertMutesParameter/);
    expect(text.match(/"Ref":"Alert\w+Parameter/g)).toHaveLength(2);
  });

  it('grants no other function the windows', () => {
    for (const [name, fn] of Object.entries(s.stack.functions))
      if (name !== 'infectionAlerter')
        expect(JSON.stringify(roleStatements(s.template, fn.role))).not.toMatch(
          /AlertMutesParameter/,
        );
  });
});
