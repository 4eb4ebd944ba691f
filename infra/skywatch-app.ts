import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { settingsFromContext } from './config/context.js';
import { SkywatchStack } from './skywatch-stack.js';

/**
 * The CDK app: one stack, checked by cdk-nag's AwsSolutions and Serverless packs on every
 * synth (an unacknowledged finding fails the synth).
 */
export function createApp(app: App = new App()): { app: App; stack: SkywatchStack } {
  const stack = new SkywatchStack(app, 'Skywatch', {
    description: 'Skywatch: endpoint-security reports archive, alerts and cart-customer webhook',
    env: {
      account: process.env.CDK_DEFAULT_ACCOUNT,
      region: process.env.CDK_DEFAULT_REGION,
    },
    settings: settingsFromContext(app.node),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  return { app, stack };
}
