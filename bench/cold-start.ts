import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * Cold start: for each function bundle (esbuild, ESM, minified, as the stack builds them) the
 * time to load it and run its module initialisation in a fresh Node process, against a bare
 * handler bundle that imports and constructs the same AWS SDK clients as that function, read
 * from the bundle's own inputs, and nothing else.
 */
export const ENTRIES = {
  'token-refresher': 'functions/token-refresher/handler.ts',
  'report-fetcher': 'functions/report-fetcher/handler.ts',
  'report-site-worker': 'functions/report-fetcher/site-worker.ts',
  'blocked-url-alerter': 'functions/blocked-url-alerter/handler.ts',
  'infection-alerter': 'functions/infection-alerter/handler.ts',
  'cart-customer-webhook': 'functions/cart-customer-webhook/handler.ts',
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
  POWERTOOLS_METRICS_DISABLED: 'true',
};

/** Bundles one entry as the stack does; answers its size and the SDK clients it holds. */
async function bundle(
  entry: string,
  outfile: string,
): Promise<{ bytes: number; clients: SdkClient[] }> {
  const result = await build({
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
    metafile: true,
    logLevel: 'error',
  });
  const output = Object.values(result.metafile.outputs)[0];
  const inputs = Object.entries(output?.inputs ?? {}).filter(([, i]) => i.bytesInOutput > 0);
  const clients = (Object.keys(SDK_CLIENTS) as SdkClient[]).filter((c) =>
    inputs.some(([path]) => path.includes(`node_modules/@aws-sdk/${c}/`)),
  );
  return { bytes: output?.bytes ?? 0, clients };
}

/** One fresh-process timing of `import(bundle)`, in ms. */
function loadOnce(file: string): number {
  const url = pathToFileURL(file).href;
  const script = `const t = performance.now(); await import(${JSON.stringify(url)}); console.log(performance.now() - t);`;
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, ...ENV },
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`loading ${file} failed: ${out.stderr}`);
  return Number(out.stdout.trim());
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/**
 * `runs` timings of a bundle and its bare twin, taken in adjacent pairs so that a load change on
 * a shared machine hits both alike: the medians of each, and the median of the pairs' ratios
 * (steadier than the ratio of medians when the machine's speed drifts during the run).
 */
function loadTimes(
  file: string,
  bareFile: string,
  runs: number,
): { own: number; bare: number; ratio: number } {
  const own: number[] = [];
  const bare: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < runs; i++) {
    const o = loadOnce(file);
    const b = loadOnce(bareFile);
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

export async function coldStarts(runs = 21): Promise<{ results: ColdStart[] }> {
  const dir = resolve('bench/.bundles');
  mkdirSync(dir, { recursive: true });
  const results: ColdStart[] = [];
  for (const [name, entry] of Object.entries(ENTRIES)) {
    const outfile = join(dir, `${name}.mjs`);
    const { bytes, clients } = await bundle(entry, outfile);
    const bareEntry = join(dir, `${name}.bare-entry.mjs`);
    writeFileSync(bareEntry, bareHandler(clients));
    const bareFile = join(dir, `${name}.bare.mjs`);
    const bare = await bundle(bareEntry, bareFile);
    const { own: initMs, bare: bareInitMs, ratio } = loadTimes(outfile, bareFile, runs);
    results.push({
      function: name,
      bundleBytes: bytes,
      sdkClients: clients.map((c) => SDK_CLIENTS[c]),
      bareBytes: bare.bytes,
      initMs,
      bareInitMs,
      ratio,
    });
  }
  return { results };
}
