#!/usr/bin/env node
// The one place that calls process.exit: src/cli/main.ts returns the exit code (docs/design.md §2.9).

import { readFileSync } from 'node:fs';
import { relaunchForRun } from './young-generation.js';

/**
 * Every stop says so (docs/design.md §2.8), a signal that lands while the CLI loads included:
 * until `run` takes the signals over (src/orchestration/signals.ts), one line and 130/143, as
 * a stop before any load ends, with nothing to clean up yet. Whoever adds its own listener
 * replaces this one. Called only once `run` will not re-execute itself: a signal caught just
 * before process.execve would be lost with the old image, never dispatched.
 */
function sayStopsWhileLoading() {
  if (process.argv.slice(2).find((arg) => !arg.startsWith('-')) !== 'run') return;
  const STOP_SIGNALS = ['SIGINT', 'SIGTERM'];
  const stopWhileLoading = (signal) => {
    process.stderr.write(`coachbench: stopped by ${signal} before the load started; no report was written\n`);
    process.exit(signal === 'SIGTERM' ? 143 : 130);
  };
  const stepAside = (event) => {
    if (!STOP_SIGNALS.includes(event)) return;
    process.off('newListener', stepAside);
    // Once the new listener is in: removing the last listener of a signal first would stop
    // Node watching it, and the new one would not start it again. A signal is dispatched in a
    // later turn of the loop, so none can reach this listener in between.
    queueMicrotask(() => {
      for (const signal of STOP_SIGNALS) process.off(signal, stopWhileLoading);
    });
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stopWhileLoading);
  process.on('newListener', stepAside);
}

/** 4: a defect in coachbench itself (src/util/errors.ts ExitCode.internal). */
const INTERNAL = 4;
/** 2: something the user gave is wrong, here the Node that runs coachbench (src/util/errors.ts ExitCode.usage). */
const USAGE = 2;

// Before anything else loads: on an older Node, the packages (undici first) fail at import with
// errors that say nothing of the cause (docs/design.md §2.10). package.json `engines.node` is the
// one home of the minimum, `>=MAJOR.MINOR[.PATCH]` (test/e2e/node-guard.test.ts holds it to that form).
const minimum = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node.trim());
const running = process.versions.node.split('.').map(Number);
const wanted = minimum.slice(1).map((part) => Number(part ?? 0));
const older = wanted.findIndex((part, i) => running[i] !== part);
if (older !== -1 && running[older] < wanted[older]) {
  process.stderr.write(`coachbench needs Node >= ${minimum.slice(1).filter(Boolean).join('.')}; this is ${process.version}\n`);
  process.exit(USAGE);
}

// Before the CLI loads: `run` re-executes itself with the driver's young generation capped.
relaunchForRun();
sayStopsWhileLoading();

let cli;
try {
  // The CLI as bundled by scripts/build.js (dist/bundle/): one file per entry point, not the
  // hundreds of modules of dist/ one by one (docs/design.md, "Build").
  cli = await import('../dist/bundle/main.js');
} catch (error) {
  const missing = error?.code === 'ERR_MODULE_NOT_FOUND';
  process.stderr.write(
    `coachbench: internal error: ${missing ? 'dist/ is missing or incomplete (run npm run build)' : String(error?.message ?? error).split('\n')[0]}\n`,
  );
  process.exit(INTERNAL);
}

// `coachbench profiles | head -2`: a reader that stops early ends no command (docs/design.md §2.9).
cli.tolerateClosedOutput();

// An exception that escapes every command (a timer, a stray promise) is a defect: one line and 4, not Node's stack and 1.
const crash = (error) => {
  process.stderr.write(`${cli.describeInternalError(error)}\n`);
  process.exit(INTERNAL);
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

const code = await cli.main(process.argv.slice(2));
process.exit(code);
