// Regenerates the example report committed under docs/: a smoke run against the embedded
// target, its report folder in docs/example-report/, and a 1280 px screenshot of report.html
// in docs/example-report.png (Debian's Chromium through playwright-core).
//
//   npm run build && node scripts/example-report.js
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = new URL('../', import.meta.url).pathname;
const out = join(root, 'docs', 'example-report');
await rm(out, { recursive: true, force: true });
const run = spawnSync(process.execPath, [join(root, 'bin', 'coachbench.js'), 'run', '--profile', 'smoke', '--out', out], { stdio: 'inherit' });
if (run.status !== 0 && run.status !== 1) process.exit(run.status ?? 1);
// The interval log is large and adds nothing to an example.
await rm(join(out, 'histograms.hlog'), { force: true });

const profileDir = await mkdtemp(join(tmpdir(), 'coachbench-chromium-'));
const context = await chromium.launchPersistentContext(profileDir, {
  executablePath: process.env.COACHBENCH_CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
  viewport: { width: 1280, height: 1800 },
});
const page = await context.newPage();
await page.goto(pathToFileURL(join(out, 'report.html')).href, { waitUntil: 'load' });
// The top of the page (verdict, checks, scenarios, first charts) is what a reader sees first.
await page.screenshot({ path: join(root, 'docs', 'example-report.png'), fullPage: false });
await context.close();
await rm(profileDir, { recursive: true, force: true });
console.log(`example report: ${out}, screenshot: docs/example-report.png`);
