import { paginateListObjectsV2 } from '@aws-sdk/client-s3';
import { startEmulator } from '../emulator/index.js';
import { createAwsClients } from '../lib/aws/index.js';
import { generateSigningSecret, webhookHeaders } from '../lib/webhooks/index.js';
import { type StoredObject, summariseArchive } from './local/archive-summary.js';
import { demoCredentials, functionEnv } from './local/function-env.js';
import { loadHandler } from './local/functions.js';
import { lambdaContext } from './local/lambda-context.js';
import { ensureMotoPython, MotoMissingError, startMoto } from './local/moto-server.js';
import { drainAlerts, provision } from './local/provision.js';
import { type BuiltReport, saveLocalOutput } from './local/report-output.js';

/**
 * `npm start`: the whole product on this machine. Starts the emulator and moto, creates what
 * the stack would, then runs refresher → report fetcher → alerters → webhook and prints what
 * they produced. Function logs are quiet unless SKYWATCH_VERBOSE=1.
 */
const step = (text: string) => console.log(`\n▸ ${text}`);

async function main(): Promise<void> {
  // Node 20 is supported until 2027; the SDK's notice about it would only clutter the demo.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  console.log('Skywatch local run: emulator + local AWS (moto), nothing else needed.');
  // The real-service profile: what the service writes beyond the contract (docs/emulator.md).
  const emulator = await startEmulator({
    profile: 'real',
    seed: 1,
    gsmCount: 1,
    sitesPerGsm: 6,
    endpointsPerGsm: 400,
  });
  let moto: Awaited<ReturnType<typeof startMoto>> | undefined;
  try {
    moto = await startMoto({ python: ensureMotoPython() });
    const aws = createAwsClients({
      endpoint: moto.endpoint,
      credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' },
    });
    const info = emulator.info();
    const gsm = info.gsms[0];
    if (!gsm) throw new Error('the emulator has no GSM');
    console.log(
      `  service emulator  ${emulator.baseUrl} (real-service profile)\n  local AWS (moto)  ${moto.endpoint}`,
    );

    step(
      'Creating the bucket, alert topic (+ a queue subscribed to it), fan-out queue and secrets',
    );
    const webhookSecret = generateSigningSecret();
    const res = await provision(
      aws,
      `skywatch-local-${Date.now()}`,
      demoCredentials(webhookSecret),
    );
    Object.assign(process.env, functionEnv(res, emulator, moto.endpoint, [gsm.key]), {
      POWERTOOLS_LOG_LEVEL: process.env.SKYWATCH_VERBOSE ? 'INFO' : 'CRITICAL',
      POWERTOOLS_METRICS_DISABLED: process.env.SKYWATCH_VERBOSE ? 'false' : 'true',
    });
    console.log(`  bucket ${res.bucket}, topic ${res.topicArn.split(':').at(-1)}`);

    const run = async (name: Parameters<typeof loadHandler>[0], event: unknown = {}) =>
      (await loadHandler(name))(event, lambdaContext(name));

    step(
      'token-refresher: bootstrap the token secret (password grant), then rotate (refresh grant)',
    );
    console.log('  ', JSON.stringify(await run('token-refresher')));
    console.log('  ', JSON.stringify(await run('token-refresher')));

    step(
      `report-fetcher: archive GSM ${gsm.key} (${gsm.sites.length} sites, ${gsm.endpointCount} endpoints)`,
    );
    console.log('  ', JSON.stringify(await run('report-fetcher')));

    step('infection-alerter: first pass sets the cursor');
    console.log('  ', JSON.stringify(await run('infection-alerter')));
    const victims = gsm.sites.slice(0, 2).flatMap((s) => emulator.machineIds(s.key, 2));
    for (const id of victims) emulator.endpointAction(id, 'infect', 'Trojan|Win32|Emotet.Demo');
    console.log(`  infected ${victims.length} endpoints through the emulator's admin API`);
    console.log('  ', JSON.stringify(await run('infection-alerter')));
    console.log(
      '   run again (nothing new to alert):',
      JSON.stringify(await run('infection-alerter')),
    );

    step('blocked-url-alerter: a spike yesterday at one site');
    const spiked = gsm.sites[2] ?? gsm.sites[0];
    const yesterday = new Date(emulator.now().getTime() - 86_400_000).toISOString().slice(0, 10);
    if (spiked) emulator.addBlockedUrls(spiked.id, yesterday, 5000);
    console.log('  ', JSON.stringify(await run('blocked-url-alerter')));

    step("report-builder: the day's HTML report, and the seat CSV of the report day's month");
    const reportDay = new Date(emulator.now().getTime() - 2 * 86_400_000).toISOString();
    const built = (await run('report-builder', { month: reportDay.slice(0, 7) })) as {
      reports: (BuiltReport & { sites: number; pageBytes: number })[];
    };
    for (const r of built.reports)
      console.log(`   ${r.pageKey} (${r.sites} sites, ${r.pageBytes} bytes), ${r.seatCsvKey}`);

    step('cart-customer-webhook: one signed delivery, then the same delivery retried');
    const cart = info.carts[0]?.vendorOrderCode ?? '';
    const body = JSON.stringify({
      vendorOrderCode: cart,
      shipping: {
        firstName: 'Grace',
        lastName: 'Hopper',
        address1: '1 Harbor Way',
        city: 'Arlington',
        postalCode: '22201',
        state: 'VA',
        country: 'US',
        email: 'grace@example.com',
      },
    });
    const delivery = () => ({
      requestContext: { http: { method: 'POST' } },
      headers: {
        'content-type': 'application/json',
        // A sender's retry keeps the webhook-id and signs again with a new timestamp.
        ...webhookHeaders([webhookSecret], {
          id: `order-${cart}`,
          timestamp: Math.floor(Date.now() / 1000),
          body,
        }),
      },
      body,
      isBase64Encoded: false,
    });
    const first = (await run('cart-customer-webhook', delivery())) as {
      statusCode: number;
      body: string;
    };
    const again = (await run('cart-customer-webhook', delivery())) as {
      statusCode: number;
      headers: Record<string, string>;
    };
    console.log(
      `   first: HTTP ${first.statusCode}; retry: HTTP ${again.statusCode} (replayed: ${again.headers['idempotent-replayed'] ?? 'no'})`,
    );

    step('Summary');
    const objects: StoredObject[] = [];
    for await (const page of paginateListObjectsV2({ client: aws.s3 }, { Bucket: res.bucket }))
      for (const o of page.Contents ?? []) objects.push({ key: o.Key ?? '', size: o.Size ?? 0 });
    for (const line of summariseArchive(objects, res.bucket, gsm.key)) console.log(`  ${line}`);
    const saved = await saveLocalOutput(aws.s3, res.bucket, built.reports);
    console.log(`  the archive, copied for \`npm run query\`: ${saved.archive}`);
    for (const file of saved.files) console.log(`  report: ${file}`);
    const alerts = await drainAlerts(aws, res.alertQueueUrl);
    console.log(`  ${alerts.length} alerts received on the subscribed queue:`);
    for (const a of alerts) console.log(`    [${String(a.severity)}] ${String(a.snsSubject)}`);
    const customers =
      (
        JSON.parse(first.body) as {
          customers?: Record<string, { CustomerTypeDescription?: string; FirstName?: string }>;
        }
      ).customers ?? {};
    console.log(
      `  webhook answer for cart ${cart}: ${Object.values(customers)
        .map((c) => `${c.CustomerTypeDescription} ${c.FirstName}`)
        .join(', ')}`,
    );
  } finally {
    await moto?.stop();
    await emulator.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof MotoMissingError) console.error(`\n${error.message}`);
  else console.error('\nlocal run failed:', error);
  process.exit(1);
});
