// playwright-core driving the system Chromium (never a downloaded browser), one fresh
// profile per launch.
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS });
}

export interface Visit {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors, which a test should expect to stay empty. */
  errors: string[];
}

export async function openPage(browser: Browser, baseURL: string): Promise<Visit> {
  const context = await browser.newContext({ baseURL, locale: 'zh-CN', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}
