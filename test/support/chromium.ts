/**
 * Debian's headless Chromium for the browser tests (report, trend, live dashboard), driven
 * by playwright-core. .ci/run installs it where it can; a test that finds none says why.
 * The flags are what this closed sandbox needs: no background networking (every attempt is
 * refused, many at a time), no sandbox as root, no GPU.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const CHROMIUM = process.env.COACHBENCH_CHROMIUM ?? '/usr/bin/chromium';
export const HAS_BROWSER = existsSync(CHROMIUM);
/** Appended to a test's name when it cannot run, so the skip says why where it is listed. */
export const SKIP_NOTE = HAS_BROWSER ? '' : ` (SKIPPED: no browser at ${CHROMIUM}; install it with: apt-get install -y chromium)`;
if (!HAS_BROWSER) console.warn(`browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set COACHBENCH_CHROMIUM)`);

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A fresh headless browser whose profile lives in `profileDir` (the caller removes it). */
export function launchChromium(profileDir: string, viewport = { width: 1280, height: 900 }): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport });
}

/** What a page did that a self-contained page must not: errors, and requests it made. */
export interface PageFindings {
  errors: string[];
  requests: string[];
}

/** A new page that records console errors, page errors and every request it makes. */
export async function watchedPage(context: BrowserContext): Promise<{ page: Page; findings: PageFindings }> {
  const page = await context.newPage();
  const findings: PageFindings = { errors: [], requests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') findings.errors.push(message.text());
  });
  page.on('pageerror', (error) => findings.errors.push(error.message));
  page.on('request', (request) => findings.requests.push(request.url()));
  return { page, findings };
}

export interface BrowserSession {
  /** The browser, once beforeAll has run (only when HAS_BROWSER). */
  readonly context: BrowserContext;
  /** A scratch folder for the test file, removed with the browser. */
  readonly dir: string;
}

/**
 * One headless browser for a test file: started before its tests when there is a browser,
 * in a fresh profile (no state, extensions or caches from anywhere else), and closed and
 * removed after them.
 */
export function useBrowser(prefix: string): BrowserSession {
  let context: BrowserContext | null = null;
  let dir = '';
  beforeAll(async () => {
    if (!HAS_BROWSER) return;
    dir = await mkdtemp(join(tmpdir(), `coachbench-${prefix}-`));
    context = await launchChromium(join(dir, 'profile'));
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return {
    get context(): BrowserContext {
      if (!context) throw new Error('the browser is not started');
      return context;
    },
    get dir(): string {
      return dir;
    },
  };
}
