import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { redact } from '../lib/index.js';
import { runChecks } from './doctor/checks.js';
import { type CheckRow, passed, renderReport } from './doctor/report.js';
import { readSettings, SettingsProblem } from './doctor/settings.js';

/**
 * `npm run doctor`: checks a configured deployment against the service and prints what to
 * fix (docs/operations.md "Connection check"). Exits 1 when a check fails.
 */
export async function doctor(
  env: NodeJS.ProcessEnv = process.env,
  secrets?: SecretsManagerClient,
): Promise<{
  rows: CheckRow[];
  ok: boolean;
  text: string;
}> {
  let rows: CheckRow[];
  try {
    rows = await runChecks(await readSettings(env, secrets));
  } catch (error) {
    if (!(error instanceof SettingsProblem)) throw error;
    rows = [{ check: 'settings', verdict: 'fail', detail: error.message, fix: error.fix }];
  }
  return { rows, ok: passed(rows), text: renderReport(rows) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  doctor()
    .then(({ ok, text }) => {
      console.log(text);
      process.exitCode = ok ? 0 : 1;
    })
    .catch((error: unknown) => {
      console.error(`doctor: ${redact(error instanceof Error ? error.message : String(error))}`);
      process.exitCode = 2;
    });
}
