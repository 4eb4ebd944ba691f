import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App, type CfnResource, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { SkywatchSettings } from '../../infra/config/settings.js';
import { SkywatchStack } from '../../infra/skywatch-stack.js';
import { ROOT } from '../support/root.js';

export { ROOT };

/** The context of cdk.json (feature flags and example settings), as `cdk synth` sees it. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  return cdkJson.context;
}

export const SETTINGS: SkywatchSettings = {
  baseUrl: 'https://api.skywatch.test/service',
  authUrl: 'https://api.skywatch.test/identity',
  gsmKeys: ['AAAA-BBBB-CCCC-DDDD-EEEE', 'FFFF-GGGG-HHHH-IIII-JJJJ'],
  // On by default when deployed; report-site.test.ts asserts exactly what it adds to the stack
  // these suites describe, and nag.test.ts and bundles.test.ts synthesize it too.
  reportLinks: false,
};

export interface Synth {
  readonly app: App;
  readonly stack: SkywatchStack;
  readonly template: Template;
}

const synths = new Map<string, Synth>();

/**
 * The app and stack of these settings with the feature flags of cdk.json. Bundling is skipped
 * unless asked for: template tests do not need the bundles, and six esbuild runs cost seconds.
 * The same settings give the same synth, to be read, not changed: the files of a worker
 * (vitest.config.ts, `units`) share one instead of each synthesizing it again. A test that adds
 * to the stack or changes it takes one of its own (`synthToChange`).
 */
export function synth(
  settings: Partial<SkywatchSettings> = {},
  options: { bundle?: boolean; context?: Record<string, unknown> } = {},
): Synth {
  const key = JSON.stringify([settings, options]);
  let made = synths.get(key);
  if (!made) {
    made = synthToChange(settings, options);
    synths.set(key, made);
  }
  return made;
}

/** A fresh app and stack, as `synth`, for a test to add to or change. */
export function synthToChange(
  settings: Partial<SkywatchSettings> = {},
  options: { bundle?: boolean; context?: Record<string, unknown> } = {},
): Synth {
  const app = new App({
    context: {
      ...cdkJsonContext(),
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
      ...options.context,
    },
  });
  const stack = new SkywatchStack(app, 'Skywatch', { settings: { ...SETTINGS, ...settings } });
  return { app, stack, template: Template.fromStack(stack) };
}

/** The logical id of a construct's CloudFormation resource (or of the resource itself). */
export function logicalId(construct: IConstruct): string {
  const cfn = (construct.node.defaultChild ?? construct) as CfnResource;
  return Stack.of(construct).resolve(cfn.logicalId) as string;
}

export const ref = (c: IConstruct) => ({ Ref: logicalId(c) });
export const arn = (c: IConstruct) => ({ 'Fn::GetAtt': [logicalId(c), 'Arn'] });
export const prefixArn = (bucket: IConstruct, prefix: string) => ({
  'Fn::Join': ['', [arn(bucket), `/${prefix}*`]],
});

// biome-ignore lint/suspicious/noExplicitAny: tests read CloudFormation JSON, untyped by nature.
export type Json = any;

type Statement = Record<string, unknown>;

/** Every statement of every identity policy attached to a role, order-independent. */
export function roleStatements(template: Template, role: IConstruct): Statement[] {
  const roleRef = ref(role);
  const policies = template.findResources('AWS::IAM::Policy');
  return Object.values(policies)
    .filter((p) => JSON.stringify(p.Properties.Roles).includes(JSON.stringify(roleRef)))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
    .map(normalize)
    .sort(byJson);
}

/** Sorts arrays of actions and resources so statements compare regardless of order. */
export function normalize(statement: Statement): Statement {
  const out: Statement = { ...statement };
  for (const key of ['Action', 'Resource']) {
    const value = out[key];
    if (Array.isArray(value)) out[key] = [...value].sort(byJson);
  }
  return out;
}

export const byJson = (a: unknown, b: unknown) =>
  JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0;

/** The statement CDK writes for a grant, normalized the same way. */
export const allow = (action: string | string[], resource: unknown, extra: Statement = {}) =>
  normalize({ Action: action, Effect: 'Allow', Resource: resource, ...extra });
