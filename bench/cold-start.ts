import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * Cold start: for each function bundle (esbuild, ESM, minified, as the stack builds them) the
 * time to load it and run its module initialisation in a fresh Node process, against a bare
 * handler bundle that imports and constructs the same AWS SDK clients and nothing else.
 */
export const ENTRIES = {
  'token-refresher': 'functions/token-refresher/handler.ts',
  'report-fetcher': 'functions/report-fetcher/handler.ts',
  'report-site-worker': 'functions/report-fetcher/site-worker.ts',
  'blocked-url-alerter': 'functions/blocked-url-alerter/handler.ts',
  'infection-alerter': 'functions/infection-alerter/handler.ts',
  'cart-customer-webhook': 'functions/cart-customer-webhook/handler.ts',
} as const;

const BARE = `import { S3Client } from '@aws-sdk/client-s3';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
const clients = [new S3Client({}), new SNSClient({}), new SQSClient({}), new SecretsManagerClient({})];
export const handler = async () => clients.length;
`;

const ENV = {
  AWS_REGION: 'us-east-1',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  SKYWATCH_BASE_URL: 'https://service.example.com/service',
  SKYWATCH_AUTH_URL: 'https://service.example.com/identity',
  TOKEN_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:token',
  CREDENTIALS_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:credentials',
  REPORT_BUCKET: 'bench-bucket',
  ALERT_TOPIC_ARN: 'arn:aws:sns:us-east-1:000000000000:alerts',
  GSM_KEYS: 'AAAA-BBBB-CCCC-DDDD-EEEE',
  POWERTOOLS_METRICS_DISABLED: 'true',
};

async function bundle(entry: string, outfile: string): Promise<number> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    mainFields: ['module', 'main'],
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
  return statSync(outfile).size;
}

/** Median of `runs` fresh-process timings of `import(bundle)`, in ms. */
function loadTime(file: string, runs: number): number {
  const url = pathToFileURL(file).href;
  const script = `const t = performance.now(); await import(${JSON.stringify(url)}); console.log(performance.now() - t);`;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, ...ENV },
      encoding: 'utf8',
    });
    if (out.status !== 0) throw new Error(`loading ${file} failed: ${out.stderr}`);
    times.push(Number(out.stdout.trim()));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

export interface ColdStart {
  function: string;
  bundleBytes: number;
  initMs: number;
  bareInitMs: number;
  ratio: number;
}

export async function coldStarts(runs = 7): Promise<{ bareBytes: number; results: ColdStart[] }> {
  const dir = resolve('bench/.bundles');
  mkdirSync(dir, { recursive: true });
  const bareEntry = join(dir, 'bare-entry.mjs');
  writeFileSync(bareEntry, BARE);
  const bareFile = join(dir, 'bare.mjs');
  const bareBytes = await bundle(bareEntry, bareFile);
  const bareInitMs = loadTime(bareFile, runs);
  const results: ColdStart[] = [];
  for (const [name, entry] of Object.entries(ENTRIES)) {
    const outfile = join(dir, `${name}.mjs`);
    const bundleBytes = await bundle(entry, outfile);
    const initMs = loadTime(outfile, runs);
    results.push({ function: name, bundleBytes, initMs, bareInitMs, ratio: initMs / bareInitMs });
  }
  return { bareBytes, results };
}
