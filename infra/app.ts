import { createApp } from './skywatch-app.js';

// Entry of `cdk synth` / `cdk deploy` (cdk.json: npx tsx infra/app.ts).
createApp().app.synth();
