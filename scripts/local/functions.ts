import type { Context } from 'aws-lambda';

/** The deployable handlers by name, loaded on demand (each reads its environment when loaded). */
export const FUNCTIONS = {
  'token-refresher': () => import('../../functions/token-refresher/handler.js'),
  'report-fetcher': () => import('../../functions/report-fetcher/handler.js'),
  'report-archive-worker': () => import('../../functions/archive-worker/handler.js'),
  'blocked-url-alerter': () => import('../../functions/blocked-url-alerter/handler.js'),
  'infection-alerter': () => import('../../functions/infection-alerter/handler.js'),
  'alert-notifier': () => import('../../functions/alert-notifier/handler.js'),
  'cart-customer-webhook': () => import('../../functions/cart-customer-webhook/handler.js'),
  'report-builder': () => import('../../functions/report-builder/handler.js'),
} as const;
export type FunctionName = keyof typeof FUNCTIONS;

type AnyHandler = (event: unknown, context: Context) => Promise<unknown>;

export async function loadHandler(name: FunctionName): Promise<AnyHandler> {
  const module = (await FUNCTIONS[name]()) as { handler: AnyHandler };
  return module.handler;
}
