import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleFunctions, PROJECT_ROOT } from '../infra/bundling.js';
import { benchBundlePath, DEPLOYED_NODE_FLAGS } from './bundle.js';
import { median } from './medians.js';

/**
 * Cold start: for each function bundle (esbuild, ESM, minified, with its source map, as the
 * stack builds them) the time to load it and run its module initialisation in a fresh Node
 * process started with the stack's NODE_OPTIONS, against a bare handler bundle that imports and
 * constructs the same AWS SDK clients as that function (read from its inputs), and nothing else.
 */
export const ENTRIES = {
  'token-refresher': 'functions/token-refresher/handler.ts',
  'report-fetcher': 'functions/report-fetcher/handler.ts',
  'report-archive-worker': 'functions/archive-worker/handler.ts',
  'blocked-url-alerter': 'functions/blocked-url-alerter/handler.ts',
  'infection-alerter': 'functions/infection-alerter/handler.ts',
  'cart-customer-webhook': 'functions/cart-customer-webhook/handler.ts',
  'report-builder': 'functions/report-builder/handler.ts',
  'alert-notifier': 'functions/alert-notifier/handler.ts',
} as const;

/** SDK client packages a function may bundle, and the client class each exports. */
const SDK_CLIENTS = {
  'client-s3': 'S3Client',
  'client-sns': 'SNSClient',
  'client-sqs': 'SQSClient',
  'client-secrets-manager': 'SecretsManagerClient',
} as const;
type SdkClient = keyof typeof SDK_CLIENTS;

function bareHandler(clients: readonly SdkClient[]): string {
  const imports = clients.map((c) => `import { ${SDK_CLIENTS[c]} } from '@aws-sdk/${c}';`);
  const constructed = clients.map((c) => `new ${SDK_CLIENTS[c]}({})`).join(', ');
  return `${imports.join('\n')}
const clients = [${constructed}];
export const handler = async () => clients.length;
`;
}

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
  NOTIFIER_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:notifier',
  NOTIFIER_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/notifier.fifo',
  NOTIFIER_DLQ_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/notifier-dlq.fifo',
  POWERTOOLS_METRICS_DISABLED: 'true',
  // As the stack deploys them by default (setting traceCalls): no tracer is loaded.
  POWERTOOLS_TRACE_ENABLED: 'false',
};

/** Bundles as the stack does, in one esbuild run: by name, each one's size and SDK clients. */
function bundleAll(
  entries: Record<string, string>,
): Record<string, { file: string; bytes: number; clients: SdkClient[] }> {
  const dir = benchBundlePath('');
  const { outputs } = bundleFunctions(dir, entries);
  return Object.fromEntries(
    Object.keys(entries).map((name) => {
      const file = join(dir, `${name}.mjs`);
      const output = outputs[relative(PROJECT_ROOT, file)];
      const inputs = Object.entries(output?.inputs ?? {}).filter(([, i]) => i.bytesInOutput > 0);
      const held = (c: SdkClient) =>
        inputs.some(([p]) => p.includes(`node_modules/@aws-sdk/${c}/`));
      const clients = (Object.keys(SDK_CLIENTS) as SdkClient[]).filter(held);
      return [name, { file, bytes: output?.bytes ?? 0, clients }];
    }),
  );
}

/** One fresh-process timing of `import(bundle)`, in ms, with the given Node flags. */
function loadOnce(node: string, file: string, nodeFlags: readonly string[]): number {
  const url = pathToFileURL(file).href;
  const script = `const t = performance.now(); await import(${JSON.stringify(url)}); console.log(performance.now() - t);`;
  const out = spawnSync(node, [...nodeFlags, '--input-type=module', '-e', script], {
    env: { ...process.env, ...ENV },
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`loading ${file} failed: ${out.stderr}`);
  return Number(out.stdout.trim());
}

/**
 * `runs` timings of a bundle and its bare twin, both started as deployed, taken in adjacent
 * pairs so that a load change on a shared machine hits both alike: the medians of each, and the
 * median of the pairs' ratios (steadier than the ratio of medians when the machine's speed
 * drifts during the run).
 */
function loadTimes(
  node: string,
  file: string,
  bareFile: string,
  runs: number,
): { own: number; bare: number; ratio: number } {
  const own: number[] = [];
  const bare: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < runs; i++) {
    const o = loadOnce(node, file, DEPLOYED_NODE_FLAGS);
    const b = loadOnce(node, bareFile, DEPLOYED_NODE_FLAGS);
    own.push(o);
    bare.push(b);
    ratios.push(o / b);
  }
  return { own: median(own), bare: median(bare), ratio: median(ratios) };
}

export interface ColdStart {
  function: string;
  bundleBytes: number;
  /** The SDK clients the bundle holds, which its bare twin holds too. */
  sdkClients: string[];
  bareBytes: number;
  initMs: number;
  bareInitMs: number;
  ratio: number;
}

/** Cold starts of every function on the `node` binary given (the deployed major: measured-node.ts). */
export async function coldStarts(node: string, runs = 21): Promise<{ results: ColdStart[] }> {
  const own = Object.entries(bundleAll(ENTRIES));
  const twinEntries = own.map(([name, { clients }]) => {
    const entry = benchBundlePath(`${name}.bare-entry.mjs`);
    writeFileSync(entry, bareHandler(clients));
    return [`${name}.bare`, entry];
  });
  const twins = bundleAll(Object.fromEntries(twinEntries));
  const results = own.map(([name, bundle]): ColdStart => {
    const bare = twins[`${name}.bare`] ?? { file: '', bytes: 0 };
    const times = loadTimes(node, bundle.file, bare.file, runs);
    return {
      function: name,
      bundleBytes: bundle.bytes,
      sdkClients: bundle.clients.map((c) => SDK_CLIENTS[c]),
      bareBytes: bare.bytes,
      initMs: times.own,
      bareInitMs: times.bare,
      ratio: times.ratio,
    };
  });
  return { results };
}
