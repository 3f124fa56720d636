/**
 * `coachbench run`, end to end: resolve the target, stop on the first SIGINT/SIGTERM, and
 * run one session (or a capacity search of many). Returns the exit code of docs/design.md
 * §2; never exits.
 */
import { join } from 'node:path';
import { runCapacitySearch } from './capacity/capacity-search.js';
import type { RunConfig } from './run-config.js';
import { defaultRunId, type RunOutcome, runSession } from './run-session.js';
import { preflight, resolveTarget } from './run-target.js';
import { onStopSignal } from './signals.js';

/** Resolves the target, stops on the first SIGINT/SIGTERM, and runs one session (or a capacity search). */
export async function executeRun(config: RunConfig, stderr: NodeJS.WriteStream = process.stderr): Promise<RunOutcome> {
  const outDir = config.outDir ?? join('reports', defaultRunId(config.profile.name, new Date()));
  const target = await resolveTarget(config);
  const stop = new AbortController();
  let interrupted = false;
  const removeSignalHandler = onStopSignal(() => {
    interrupted = true;
    stop.abort();
  });
  try {
    await preflight(target.url);
    const session = { config, target, outDir, stop, isInterrupted: () => interrupted, stderr };
    return config.profile.search ? await runCapacitySearch(session) : await runSession(session);
  } finally {
    removeSignalHandler();
    await target.embedded?.close();
  }
}
