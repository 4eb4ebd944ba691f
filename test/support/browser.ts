import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { chromiumPath } from './chromium.js';

/** The packaged headless Chromium (./chromium.ts), or the one CHROMIUM_PATH names. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: await chromiumPath(),
    // Root in CI: Chromium's sandbox needs user namespaces that containers often lack. The
    // machines here reach no network, so Chromium's background connections are turned off.
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'],
  });
}

export interface OpenedPage {
  page: Page;
  /** Console errors and uncaught page errors. */
  errors: string[];
  /** Every request the page made besides loading itself (all refused). */
  requests: string[];
  /** Dialogs a script opened (alert, confirm): none should. */
  dialogs: string[];
  /** Milliseconds from navigation to the load event. */
  loadMs: number;
}

/** Opens an HTML file as a user would from disk, recording anything it tries beyond itself. */
export async function openFile(browser: Browser, path: string): Promise<OpenedPage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const url = pathToFileURL(path).href;
  const opened: OpenedPage = { page, errors: [], requests: [], dialogs: [], loadMs: 0 };
  page.on('console', (m) => {
    if (m.type() === 'error') opened.errors.push(m.text());
  });
  page.on('pageerror', (e) => opened.errors.push(e.message));
  page.on('dialog', (d) => {
    opened.dialogs.push(d.message());
    void d.dismiss();
  });
  await page.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue();
    opened.requests.push(route.request().url());
    return route.abort();
  });
  const start = performance.now();
  await page.goto(url, { waitUntil: 'load' });
  opened.loadMs = performance.now() - start;
  return opened;
}
