/**
 * Debian's headless Chromium for the browser tests (report, trend, live dashboard), driven
 * by playwright-core. .ci/run installs it where it can; a test that finds none says why.
 * The flags are what this closed sandbox needs: no background networking (every attempt is
 * refused, many at a time), no sandbox as root, no GPU.
 */
import { existsSync } from 'node:fs';
import { type BrowserContext, chromium } from 'playwright-core';

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
