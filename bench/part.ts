import { fanOut } from './fan-out.js';
import { timeToPage } from './time-to-page.js';
import { tokenEconomy } from './token-economy.js';

/**
 * Runs one benchmark part in this process and prints its result as the last line. Parts that
 * load the functions need a process each: a handler reads its environment once, when loaded.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'CRITICAL';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

const parts = {
  'token-economy': () => tokenEconomy(),
  'fan-out': () => fanOut(16, Number(process.env.BENCH_FAN_OUT_SITES ?? 1000)),
  'time-to-page': () => timeToPage(Number(process.env.BENCH_PAGE_CHANGES ?? 50)),
} as const;
const name = process.argv[2] as keyof typeof parts;
parts[name]()
  .then((result) => console.log(JSON.stringify(result)))
  .catch((error: unknown) => {
    console.log(JSON.stringify({ error: (error as Error).message }));
    process.exit(1);
  });
