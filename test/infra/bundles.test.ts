import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFunction, bundleFunctions, FUNCTION_ESBUILD_TARGET } from '../../infra/bundling.js';
import { FUNCTION_RUNTIME } from '../../infra/constructs/skywatch-function.js';
import type { FunctionName } from '../../infra/functions.js';
import { createApp } from '../../infra/skywatch-app.js';
import type { SkywatchStack } from '../../infra/skywatch-stack.js';
import { cdkJsonContext, type Json, logicalId } from './helpers.js';

/** Minified bundles above this start to cost cold-start time; raise it only on purpose. */
const MAX_BUNDLE_BYTES = 3 * 1024 * 1024;

// One real synth for the file, as `cdk synth` does it: six esbuild runs, cdk-nag on (any
// finding, a warning too, fails this synth: nag.test.ts); CloudFormation's schema checks are
// cloudformation-validation.test.ts's.
let outdir: string;
let stack: SkywatchStack;
let template: { Resources: Record<string, { Properties: Record<string, Json> }> };
beforeAll(() => {
  outdir = mkdtempSync(path.join(tmpdir(), 'skywatch-cdk-'));
  const app = new App({ outdir, context: cdkJsonContext() });
  stack = createApp(app).stack;
  const assembly = app.synth();
  template = assembly.getStackByName('Skywatch').template;
}, 180_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const NAMES: FunctionName[] = [
  'tokenRefresher',
  'reportFetcher',
  'archiveWorker',
  'blockedUrlAlerter',
  'infectionAlerter',
  'cartCustomerWebhook',
];

/** The asset directory the function's code was bundled into. */
function assetDir(name: FunctionName): string {
  const props = template.Resources[logicalId(stack.functions[name].function)]?.Properties;
  const key: unknown = props?.Code?.S3Key;
  if (typeof key !== 'string') throw new Error(`${name} has no S3 code key`);
  return path.join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
}

/** A file of the function's asset as the quoted URL a script's `import()` takes. */
function assetUrl(name: FunctionName, file: string): string {
  return JSON.stringify(pathToFileURL(path.join(assetDir(name), file)).href);
}

/** The sources a file of the function's asset was bundled from, read from its source map. */
function mapSources(name: FunctionName, file: string): string[] {
  return JSON.parse(readFileSync(path.join(assetDir(name), `${file}.map`), 'utf8')).sources;
}

/** Runs an ES module script in a fresh Node process (its own environment when given). */
function runModule(script: string, env?: NodeJS.ProcessEnv) {
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 30_000,
    ...(env ? { env } : {}),
  });
}

describe('Bundles (real esbuild, no Docker)', () => {
  for (const name of NAMES) {
    it(`bundles ${name} to one minified ESM file within the size budget`, () => {
      const file = path.join(assetDir(name), 'index.mjs');
      const size = statSync(file).size;
      console.log(`bundle ${name}: ${(size / 1024).toFixed(1)} KiB`);
      expect(size).toBeGreaterThan(0);
      expect(size).toBeLessThanOrEqual(MAX_BUNDLE_BYTES);
      const code = readFileSync(file, 'utf8');
      // ESM with the createRequire banner for CommonJS dependencies.
      expect(
        code.startsWith("import { createRequire as __skywatchCreateRequire } from 'node:module';"),
      ).toBe(true);
      expect(code).toMatch(/export\s*\{[^}]*\bhandler\b[^}]*\}/);
      // Minified: lines run to thousands of characters (newlines survive only inside strings).
      expect(code.length / code.split('\n').length).toBeGreaterThan(1000);
    });

    it(`ships a source map for ${name}, without the sources themselves`, () => {
      const map = JSON.parse(readFileSync(path.join(assetDir(name), 'index.mjs.map'), 'utf8'));
      expect(map.sources.length).toBeGreaterThan(0);
      expect(map.sourcesContent).toBeUndefined();
      expect(readFileSync(path.join(assetDir(name), 'index.mjs'), 'utf8')).toMatch(
        /\/\/# sourceMappingURL=index\.mjs\.map\s*$/,
      );
    });
  }

  // zod/mini has no messages of its own: lib/zod.ts sets the English ones. The package is
  // "sideEffects": false, so esbuild would drop that setting if nothing the bundle uses came
  // from that module; a bad setting at cold start shows whether it survived.
  for (const name of NAMES) {
    it(`${name} names a bad setting in English when its bundle loads`, () => {
      const url = assetUrl(name, 'index.mjs');
      const script = `try { await import(${url}); } catch (e) { console.log(JSON.stringify({ name: e.name, message: e.message })); }`;
      const run = runModule(script, {
        PATH: process.env.PATH,
        AWS_REGION: 'us-east-1',
        SKYWATCH_BASE_URL: 'https://service.example.com/service',
        SKYWATCH_AUTH_URL: 'https://service.example.com/identity',
        TOKEN_SECRET_ARN: '',
      });
      expect(JSON.parse(run.stdout)).toEqual({
        name: 'ConfigError',
        message:
          'Environment variable TOKEN_SECRET_ARN Too small: expected string to have >=1 characters',
      });
    });
  }

  it('bundles the AWS SDK instead of importing the runtime copy', () => {
    // An external SDK would surface as an import or esbuild's __require of '@aws-sdk/…'.
    const external =
      /(\bfrom\s*["']@aws-sdk\/|\bimport\(\s*["']@aws-sdk\/|__require\(\s*["']@aws-sdk\/)/;
    for (const name of NAMES) {
      const code = readFileSync(path.join(assetDir(name), 'index.mjs'), 'utf8');
      expect(code.match(external)?.[0], name).toBeUndefined();
    }
  });

  it('bundles only the AWS SDK clients each function uses', () => {
    // Every client costs cold-start time; a stray import (a shared module reaching into an
    // adapter) would pull one in. The source map names every bundled package.
    const uses: Record<FunctionName, string[]> = {
      tokenRefresher: ['client-secrets-manager'],
      reportFetcher: ['client-s3', 'client-secrets-manager', 'client-sqs'],
      archiveWorker: ['client-s3', 'client-secrets-manager', 'client-sqs'],
      blockedUrlAlerter: ['client-s3', 'client-secrets-manager', 'client-sns'],
      infectionAlerter: [
        'client-s3',
        'client-secrets-manager',
        'client-sns',
        'client-sqs',
        'client-ssm',
      ],
      cartCustomerWebhook: ['client-s3', 'client-secrets-manager'],
      reportBuilder: ['client-s3', 'client-secrets-manager'],
      alertNotifier: ['client-s3', 'client-secrets-manager', 'client-sqs'],
    };
    for (const name of NAMES) {
      const clients = new Set(
        mapSources(name, 'index.mjs').flatMap(
          (source) => /@aws-sdk\/(client-[a-z0-9-]+)\//.exec(source)?.[1] ?? [],
        ),
      );
      expect([...clients].sort(), name).toEqual(uses[name]);
    }
  });

  // esbuild's target and the benchmarks' Node (bench/measured-node.ts) follow the runtime.
  it('bundles for the Node.js major of the runtime it deploys', () => {
    expect(FUNCTION_RUNTIME.name).toBe(`nodejs${FUNCTION_ESBUILD_TARGET.replace('node', '')}.x`);
  });

  // The cold-start and archive benchmarks measure bundles they build themselves; they count
  // only if those are the bundles the stack deploys.
  it('gives the benchmarks the bundle the stack deploys, byte for byte', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skywatch-bench-bundle-'));
    try {
      const outfile = path.join(dir, 'index.mjs');
      bundleFunction(path.resolve('functions/token-refresher/handler.ts'), outfile);
      // Compared by digest: a diff of two minified bundles is unreadable.
      const digest = (file: string) =>
        createHash('sha256').update(readFileSync(file)).digest('hex');
      expect(digest(outfile)).toBe(digest(path.join(assetDir('tokenRefresher'), 'index.mjs')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bundles several functions in one run into the code the stack deploys, chunks included', () => {
    // The cold-start benchmark builds every function this way (bench/cold-start.ts).
    const dir = mkdtempSync(path.join(tmpdir(), 'skywatch-bench-bundle-'));
    try {
      bundleFunctions(dir, {
        'report-builder': 'functions/report-builder/handler.ts',
        'token-refresher': path.resolve('functions/token-refresher/handler.ts'),
      });
      // The same bytes, but for the last line: the name of the file's own source map.
      const digest = (file: string) =>
        createHash('sha256')
          .update(readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\n?$/, ''))
          .digest('hex');
      const deployed: [string, FunctionName, string][] = [
        ['report-builder.mjs', 'reportBuilder', 'index.mjs'],
        ['echarts-setup.mjs', 'reportBuilder', 'echarts-setup.mjs'],
        ['call-tracer.mjs', 'reportBuilder', 'call-tracer.mjs'],
        ['token-refresher.mjs', 'tokenRefresher', 'index.mjs'],
        ['call-tracer.mjs', 'tokenRefresher', 'call-tracer.mjs'],
      ];
      for (const [ours, name, file] of deployed)
        expect(digest(path.join(dir, ours)), `${ours} ${name}`).toBe(
          digest(path.join(assetDir(name), file)),
        );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // A cold start parses all of index.mjs, run or not: ECharts sits in a file of its own that
  // the builder imports when it draws its first chart.
  it("keeps ECharts out of the report builder's index.mjs, in a chunk beside it", () => {
    const charting = (source: string) => /node_modules\/(echarts|zrender)\//.test(source);
    expect(mapSources('reportBuilder', 'index.mjs').filter(charting)).toEqual([]);
    expect(mapSources('reportBuilder', 'echarts-setup.mjs').some(charting)).toBe(true);
    expect(readFileSync(path.join(assetDir('reportBuilder'), 'index.mjs'), 'utf8')).toContain(
      'import("./echarts-setup.mjs")',
    );
  });

  it("draws a bar chart as SVG with the report builder's deployed ECharts chunk", () => {
    const url = assetUrl('reportBuilder', 'echarts-setup.mjs');
    const script = `const { echarts } = await import(${url});
const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 200, height: 100 });
chart.setOption({ animation: false, xAxis: { type: 'category', data: ['a', 'b'] },
  yAxis: { type: 'value' }, series: [{ type: 'bar', data: [3, 5] }] });
const svg = chart.renderToSVGString();
chart.dispose();
console.log(svg);`;
    const run = runModule(script);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^<svg[^>]*width="200"/);
    // One element per bar of the series, each a data point of it.
    expect(
      run.stdout.match(/<path [^>]*ecmeta_series_index="0" ecmeta_data_index="\d"/g),
    ).toHaveLength(2);
  });

  // The X-Ray SDK is loaded only by a function that traces its calls (setting traceCalls).
  it('keeps the X-Ray SDK out of every index.mjs, in a call-tracer chunk beside it', () => {
    const xray = (source: string) =>
      /node_modules\/(aws-xray-sdk-core|@aws-lambda-powertools\/tracer)\//.test(source);
    for (const name of NAMES) {
      expect(mapSources(name, 'index.mjs').filter(xray), name).toEqual([]);
      expect(mapSources(name, 'call-tracer.mjs').some(xray), name).toBe(true);
      expect(readFileSync(path.join(assetDir(name), 'index.mjs'), 'utf8'), name).toContain(
        'import("./call-tracer.mjs")',
      );
    }
  });

  // The token refresher as Lambda starts it: the X-Ray SDK (its cls-hooked sets
  // process.namespaces when loaded) comes from the chunk beside it only when tracing is asked for.
  it.each([
    ['true', true],
    ['false', false],
  ])('loads the X-Ray SDK with POWERTOOLS_TRACE_ENABLED=%s: %s', (enabled, loaded) => {
    const script = `const { handler } = await import(${assetUrl('tokenRefresher', 'index.mjs')});
console.log(JSON.stringify({ handler: typeof handler, xray: process.namespaces !== undefined }));`;
    const run = runModule(script, {
      PATH: process.env.PATH,
      AWS_REGION: 'us-east-1',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
      AWS_LAMBDA_FUNCTION_NAME: 'token-refresher',
      POWERTOOLS_TRACE_ENABLED: enabled,
      POWERTOOLS_LOG_LEVEL: 'CRITICAL',
      SKYWATCH_BASE_URL: 'https://service.example.com/service',
      SKYWATCH_AUTH_URL: 'https://service.example.com/identity',
      TOKEN_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:token',
      CREDENTIALS_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:cred',
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ handler: 'function', xray: loaded });
  });

  it('gives the call-tracer chunk a tracer and the handler middleware, X-Ray SDK inside', () => {
    const script = `const { callTracing } = await import(${assetUrl('alertNotifier', 'call-tracer.mjs')});
const { tracer, handlerMiddleware } = callTracing('probe');
console.log(JSON.stringify({
  capture: typeof tracer.captureAWSv3Client,
  before: typeof handlerMiddleware.before,
  after: typeof handlerMiddleware.after,
}));`;
    const run = runModule(script, { PATH: process.env.PATH, AWS_REGION: 'us-east-1' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      capture: 'function',
      before: 'function',
      after: 'function',
    });
  });

  // A run that finds its day already archived writes no object and never hashes one.
  it.each(['reportFetcher', 'archiveWorker'] as const)(
    "keeps hash-wasm out of the %s's index.mjs, in a chunk that hashes",
    (name) => {
      const hashWasm = (source: string) => source.includes('node_modules/hash-wasm/');
      expect(mapSources(name, 'index.mjs').filter(hashWasm)).toEqual([]);
      expect(readFileSync(path.join(assetDir(name), 'index.mjs'), 'utf8')).toContain(
        'import("./sha256-wasm.mjs")',
      );
      const script = `const { createSHA256 } = await import(${assetUrl(name, 'sha256-wasm.mjs')});
const h = await createSHA256();
h.update('abc');
console.log(h.digest('hex'));`;
      const run = runModule(script);
      expect(run.stderr).toBe('');
      // FIPS 180-2's example digest of "abc".
      expect(run.stdout.trim()).toBe(
        'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      );
    },
  );

  // The report links' key resource (on by default): a bundle like the others, with one client.
  it('bundles the page-link key handler with the Secrets Manager client alone', () => {
    const handler = stack.reportLinks?.key.handler.function;
    if (!handler) throw new Error('the report site is off in cdk.json');
    const key: unknown = template.Resources[logicalId(handler)]?.Properties?.Code?.S3Key;
    const dir = path.join(outdir, `asset.${String(key).replace(/\.zip$/, '')}`);
    expect(readFileSync(path.join(dir, 'index.mjs'), 'utf8')).toMatch(
      /export\s*\{[^}]*\bhandler\b[^}]*\}/,
    );
    const sources: string[] = JSON.parse(
      readFileSync(path.join(dir, 'index.mjs.map'), 'utf8'),
    ).sources;
    const clients = new Set(
      sources.flatMap((s) => /@aws-sdk\/(client-[a-z0-9-]+)\//.exec(s)?.[1] ?? []),
    );
    expect([...clients]).toEqual(['client-secrets-manager']);
  });

  it('leaves nothing of the shared bundling run in the assembly, each asset its own bundle', () => {
    // infra/bundling.ts, bundleStackFunction: each asset took its function's folder.
    expect(readdirSync(outdir).filter((f) => f.startsWith('skywatch-bundle-'))).toEqual([]);
    for (const name of NAMES) expect(existsSync(path.join(assetDir(name), 'index.mjs'))).toBe(true);
  });

  it('bundles nothing else into the function assets', () => {
    for (const name of NAMES) {
      expect(existsSync(path.join(assetDir(name), 'node_modules'))).toBe(false);
    }
  });
});
