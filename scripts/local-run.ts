import { paginateListObjectsV2 } from '@aws-sdk/client-s3';
import { PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { startEmulator } from '../emulator/index.js';
import { createAwsClients, StateStore } from '../lib/aws/index.js';
import { addDays, dayOf } from '../lib/index.js';
import type { BuildOutcome } from '../lib/reports/index.js';
import { generateSigningSecret, webhookHeaders } from '../lib/webhooks/index.js';
import { drainQueue } from '../test/support/sqs-event-source.js';
import { alertSectionLine, backdateAlertHistory } from './local/alert-history-demo.js';
import { type StoredObject, summariseArchive } from './local/archive-summary.js';
import { demoCredentials, functionEnv } from './local/function-env.js';
import { loadHandler } from './local/functions.js';
import { lambdaContext } from './local/lambda-context.js';
import { endWindow, heldLines, muteSite } from './local/maintenance-demo.js';
import { ensureMotoPython, MotoMissingError, startMoto } from './local/moto-server.js';
import { pageLinkEnv, provisionPageLinks } from './local/page-links.js';
import { drainAlerts, provision } from './local/provision.js';
import { startReceiver } from './local/receivers.js';
import { type BuiltReport, savedReportLines, saveLocalOutput } from './local/report-output.js';
import { demoRouting, putRouting, routingLines } from './local/routing-demo.js';
import { deliveryLines } from './local/show-deliveries.js';

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
      'Creating the bucket, alert topic (+ a queue subscribed to it), archive queue and secrets',
    );
    const webhookSecret = generateSigningSecret();
    const res = await provision(
      aws,
      `skywatch-local-${Date.now()}`,
      demoCredentials(webhookSecret),
    );
    // The report site's signing key, made as the stack's key resource makes it.
    const links = await provisionPageLinks(aws, res.bucket);
    Object.assign(process.env, functionEnv(res, emulator, moto.endpoint, [gsm.key]), {
      ...pageLinkEnv(links),
      POWERTOOLS_LOG_LEVEL: process.env.SKYWATCH_VERBOSE ? 'INFO' : 'CRITICAL',
      POWERTOOLS_METRICS_DISABLED: process.env.SKYWATCH_VERBOSE ? 'false' : 'true',
      // The window below ends by `unmute`: the alerter's next run follows it, not a minute later.
      ALERT_ROUTING_MAX_AGE_SECONDS: '0',
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
    // A day that outgrew the fetcher's invocation goes on in the archive worker (none here).
    const archiveWorker = (event: unknown) => run('report-archive-worker', event) as never;
    const handedOver = await drainQueue(aws.sqs, res.archiveQueueUrl, archiveWorker);
    if (handedOver.invocations > 0) console.log('   archive worker:', JSON.stringify(handedOver));

    step(
      'Five local receivers stand in for Slack, Teams, PagerDuty, a PSA webhook and a customer’s own Slack channel',
    );
    const receivers = {
      slack: await startReceiver(200),
      teams: await startReceiver(202),
      pagerduty: await startReceiver(202),
      webhook: await startReceiver(204),
      'acme-slack': await startReceiver(200),
    };
    await aws.secrets.send(
      new PutSecretValueCommand({
        SecretId: res.notifierSecretArn,
        SecretString: JSON.stringify({
          slack: { url: receivers.slack.url },
          teams: { url: receivers.teams.url },
          pagerduty: {
            routingKey: 'skywatchlocalrouting000000000000',
            url: receivers.pagerduty.url,
          },
          webhook: {
            url: receivers.webhook.url,
            secret: generateSigningSecret(),
          },
          // A named destination, which the routing document below sends one customer to.
          destinations: { 'acme-slack': { type: 'slack', url: receivers['acme-slack'].url } },
        }),
      }),
    );
    for (const [name, r] of Object.entries(receivers)) console.log(`  ${name.padEnd(10)} ${r.url}`);
    const [customerSite, quietSite] = gsm.sites;
    if (!customerSite || !quietSite) throw new Error('the emulator has fewer than two sites');
    const routing = demoRouting(customerSite, quietSite);
    await putRouting(aws.ssm, res.routingParameter, routing);
    console.log(`  routing document in SSM ${res.routingParameter}:`);
    for (const line of routingLines(routing)) console.log(`    ${line}`);
    const mutedSite = gsm.sites[2];
    if (!mutedSite) throw new Error('the emulator has fewer than three sites');
    const muted = await muteSite(
      aws.ssm,
      res.mutesParameter,
      mutedSite,
      'Re-imaging the front desk',
    );
    console.log(`  npm run alerts -- mute, into SSM ${res.mutesParameter}:`);
    for (const line of muted.lines) console.log(`    ${line}`);

    step('npm run alerts -- test: a marked test alert, trigger then resolve, to each destination');
    const tested = (await run('alert-notifier', { skywatchTestAlert: true })) as {
      results: { destination: string; action: string; status?: number; outcome: string }[];
    };
    for (const r of tested.results)
      console.log(
        `  ${r.destination.padEnd(10)} ${r.action.padEnd(8)} ${r.status ?? '---'} ${r.outcome}`,
      );
    for (const r of Object.values(receivers)) r.requests.length = 0;
    const notify = () =>
      drainQueue(aws.sqs, res.notifierQueueUrl, (event) => run('alert-notifier', event) as never);
    // Licences are judged on the full check, which the first pass runs.
    const [expiringSite, expiredSite] = gsm.sites.slice(4, 6);
    if (expiringSite) emulator.setSiteLicence(expiringSite.key, 12);
    if (expiredSite) emulator.setSiteLicence(expiredSite.key, 0);
    console.log(
      `  licence of site ${expiringSite?.name} now expires in 12 days, of ${expiredSite?.name} expired`,
    );

    step('infection-alerter: first pass sets the cursor (and runs the first full health check)');
    console.log('  ', JSON.stringify(await run('infection-alerter')));
    const victims = gsm.sites.slice(0, 2).flatMap((s) => emulator.machineIds(s.key, 2));
    for (const id of victims) emulator.endpointAction(id, 'infect', 'Trojan|Win32|Emotet.Demo');
    console.log(`  infected ${victims.length} endpoints through the emulator's admin API`);
    console.log('  ', JSON.stringify(await run('infection-alerter')));
    console.log(
      '   run again (nothing new to alert):',
      JSON.stringify(await run('infection-alerter')),
    );

    step('Health alerts: one endpoint per kind turns unhealthy through the admin API');
    const sick = gsm.sites.slice(0, 4).flatMap((s) => emulator.machineIds(s.key, 12).slice(8, 10));
    const actions = ['protection-off', 'go-offline', 'uninstall', 'other-av-on'] as const;
    for (const [i, action] of actions.entries())
      emulator.endpointAction(sick[i] ?? '', action, 'Contoso AV');
    console.log(`  ${actions.map((a, i) => `${a} ${sick[i]}`).join(', ')}`);
    console.log('  ', JSON.stringify(await run('infection-alerter')));
    console.log('   notifier:', JSON.stringify(await notify()));
    step('Health alerts: protection back on, the endpoint seen again: both resolve');
    emulator.advanceClock(60);
    emulator.endpointAction(sick[0] ?? '', 'protection-on');
    emulator.endpointAction(sick[1] ?? '', 'come-online');
    console.log('  ', JSON.stringify(await run('infection-alerter')));
    console.log('   notifier:', JSON.stringify(await notify()));
    step('Outbreak: 7 endpoints of one site infected at once give one grouped alert, not 7');
    const outbreakSite = gsm.sites[3] ?? gsm.sites[0];
    const outbreak = emulator.machineIds(outbreakSite?.key ?? '', 20).slice(12, 19);
    for (const id of outbreak) emulator.endpointAction(id, 'infect', 'Ransom|Win32|Demo');
    console.log('  ', JSON.stringify(await run('infection-alerter')));
    console.log('   notifier:', JSON.stringify(await notify()));
    const typeOf = (name: string) => (name === 'acme-slack' ? 'slack' : name);
    const atMuted = () =>
      Object.entries(receivers).flatMap(([name, r]) =>
        deliveryLines(name, r, typeOf(name)).filter((line) => line.includes(mutedSite.name)),
      );
    step(`Maintenance window on ${mutedSite.name}: its problems held, then sent once it ends`);
    for (const line of await heldLines(new StateStore(aws.s3, res.bucket), gsm.key))
      console.log(`  ${line}`);
    console.log(`  ${mutedSite.name} (muted): ${atMuted().length} deliveries while muted`);
    console.log(`  npm run alerts -- unmute ${muted.id}:`);
    for (const line of await endWindow(aws.ssm, res.mutesParameter, muted.id))
      console.log(`    ${line}`);
    console.log('  ', JSON.stringify(await run('infection-alerter')));
    console.log('   notifier:', JSON.stringify(await notify()));
    for (const [name, r] of Object.entries(receivers)) {
      const lines = deliveryLines(name, r, typeOf(name));
      console.log(`  ${name}: ${lines.length} accepted`);
      for (const line of lines) console.log(`    ${line}`);
    }
    const atQuiet = Object.values(receivers).flatMap((r) =>
      r.accepted().filter((x) => x.body.includes(quietSite.key)),
    );
    console.log(
      `  ${quietSite.name} (route quiet): ${atQuiet.length} deliveries; its alerts reached the topic only`,
    );
    const raised = atMuted().filter((line) => line.includes('Raised during maintenance'));
    console.log(
      `  ${mutedSite.name} (window ended): ${atMuted().length} deliveries, ${raised.length} marked "Raised during maintenance"`,
    );
    await Promise.all(Object.values(receivers).map((r) => r.close()));

    step('blocked-url-alerter: a spike yesterday at one site');
    const spiked = gsm.sites[2] ?? gsm.sites[0];
    const yesterday = addDays(dayOf(emulator.now().getTime()), -1);
    if (spiked) emulator.addBlockedUrls(spiked.id, yesterday, 5000);
    console.log('  ', JSON.stringify(await run('blocked-url-alerter')));

    step("report-builder: the day's HTML report, and the seat CSV of the report day's month");
    const reportDay = addDays(dayOf(emulator.now().getTime()), -2);
    // The page is of the day before yesterday; the alerts above were all today.
    const backdated = await backdateAlertHistory(
      aws.s3,
      res.bucket,
      gsm.key,
      reportDay,
      dayOf(Math.max(Date.now(), emulator.now().getTime())),
    );
    console.log(
      `  alert history of this run moved back to the report day ${reportDay} (${backdated.objects} objects, ${backdated.rows} rows), so its page has alerts to show`,
    );
    const built = (await run('report-builder', { month: reportDay.slice(0, 7) })) as {
      reports: (BuiltReport & {
        sites: number;
        pageBytes: number;
        alerts: BuildOutcome['alerts'];
      })[];
    };
    for (const r of built.reports) {
      console.log(`   ${r.pageKey} (${r.sites} sites, ${r.pageBytes} bytes), ${r.seatCsvKey}`);
      console.log(`   ${alertSectionLine(reportDay, r.alerts)}`);
    }

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
    for (const line of savedReportLines(saved, links)) console.log(`  ${line}`);
    console.log(
      `  (links are signed as the report site's are; ${links.origin} is a local placeholder for its domain)`,
    );
    const alerts = await drainAlerts(aws, res.alertQueueUrl);
    console.log(`  ${alerts.length} alerts received on the subscribed queue:`);
    for (const a of alerts) {
      // Health alerts are AWS Chatbot custom notifications; the others skywatch.alert/v1.
      const severity = a.source === 'custom' ? 'chatbot' : String(a.severity);
      console.log(`    [${severity}] ${String(a.snsSubject)}`);
    }
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
