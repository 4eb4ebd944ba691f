import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { App, CfnResource, CloudFormationValidatePlugin, Stack, Validations } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import type { SkywatchSettings } from '../../infra/config/settings.js';
import { SkywatchStack } from '../../infra/skywatch-stack.js';
import { cdkJsonContext, SETTINGS } from './helpers.js';

/**
 * CloudFormation's own schema checks (the CDK's CloudFormation Validate plugin), as `cdk synth`
 * runs them on every synth. There they only print warnings; here any finding fails. The other
 * infra suites only read templates, so vitest.config.ts turns the plugin's automatic run off
 * for them (CDK_VALIDATION=false): its engine costs seconds to start in each worker.
 */
// One engine for the file: each instance of the plugin starts its own.
const validator = new CloudFormationValidatePlugin();
const outdirs: string[] = [];
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

interface ValidationReport {
  pluginReports: {
    violations: {
      ruleName: string;
      description: string;
      violatingConstructs: { constructPath: string }[];
    }[];
  }[];
}

/** The validator's findings for the stack `build` adds to an app, one line each (none → []). */
function findings(build: (app: App) => void): string[] {
  const outdir = mkdtempSync(path.join(tmpdir(), 'skywatch-cfn-validate-'));
  outdirs.push(outdir);
  const app = new App({
    outdir,
    context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] },
  });
  build(app);
  Validations.of(app).addPlugins(validator);
  try {
    app.synth();
  } catch (error) {
    // A finding fails the synth; the report beside the assembly says which.
    if (!(error instanceof Error && error.name === 'ValidationFailed')) throw error;
  }
  const report = JSON.parse(
    readFileSync(path.join(outdir, 'validation-report.json'), 'utf8'),
  ) as ValidationReport;
  return report.pluginReports.flatMap((plugin) =>
    plugin.violations.map(
      (v) =>
        `${v.ruleName} ${v.description} at ${v.violatingConstructs.map((c) => c.constructPath).join(', ')}`,
    ),
  );
}

/** The stack of these settings. */
const skywatch = (settings: Partial<SkywatchSettings>) => (app: App) =>
  new SkywatchStack(app, 'Skywatch', { settings: { ...SETTINGS, ...settings } });

describe('CloudFormation Validate (the schema checks cdk synth runs)', () => {
  it('finds nothing in the stack', () => {
    expect(findings(skywatch({}))).toEqual([]);
  });

  it('finds nothing with every optional part switched on', () => {
    expect(
      findings(
        skywatch({
          alertEmail: 'soc@example.com',
          opsEmail: 'ops@example.com',
          athena: true,
          reportLinks: true,
          reportLinkDomain: 'reports.example.com',
          reportLinkCertificateArn: 'arn:aws:acm:us-east-1:111122223333:certificate/0a1b2c3d-4e5f',
          traceCalls: true,
        }),
      ),
    ).toEqual([]);
  });

  // A stack of the one resource: the same plugin and report, without a second synth of ours.
  it('reports a property CloudFormation would refuse (the check can fail)', () => {
    const found = findings((app) => {
      new CfnResource(new Stack(app, 'Skywatch'), 'Careless', {
        type: 'AWS::SQS::Queue',
        properties: { VisibilityTimeout: 'soon' },
      });
    });
    expect(found).toEqual([
      "F3012 VisibilityTimeout: 'soon' is not of type 'integer' at Skywatch/Careless",
    ]);
  });
});
