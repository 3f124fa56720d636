/**
 * `coachbench run`, end to end: check the report folder, resolve the target, stop on the
 * first SIGINT/SIGTERM, and run one session (or a capacity search of many). Returns the exit
 * code of docs/design.md §2; never exits.
 */
import { join } from 'node:path';
import { terminalText } from '../util/printable.js';
import { runCapacitySearch } from './capacity/capacity-search.js';
import { prepareOutputDir } from './output-dir.js';
import { startLiveOutputs } from './outputs/start-outputs.js';
import type { RunConfig } from './run-config.js';
import { lockRunFolder, type RunFolderLock } from './run-folder-lock.js';
import { defaultRunId, type RunOutcome, runSession } from './run-session.js';
import { preflightTarget, resolveTarget } from './run-target.js';
import { onStopSignal, type StopSignal } from './signals.js';

/**
 * Resolves with `work`, or as soon as `signal` aborts: a stop signal must not wait for a
 * target that takes its time to answer the reachability check.
 */
function untilStopped(work: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, (error: unknown) => (signal.aborted ? resolve() : reject(error))).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Checks the report folder, resolves the target, stops on the first SIGINT/SIGTERM, and runs one session (or a capacity search). */
export async function executeRun(
  config: RunConfig,
  stderr: NodeJS.WriteStream = process.stderr,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<RunOutcome> {
  // From the first moment: a signal while the target starts still ends the run gracefully.
  const stop = new AbortController();
  let stoppedBy: StopSignal | null = null;
  const removeSignalHandler = onStopSignal((signal) => {
    stoppedBy = signal;
    stop.abort();
  });
  let folderLock: RunFolderLock | null = null;
  try {
    const outDir = config.outDir ?? join('reports', defaultRunId(config.profile.name, new Date()));
    const flag = config.outDir === null ? 'report folder' : '--out';
    await prepareOutputDir(outDir, flag);
    // Before the target: a folder another run is writing is exit 2 with nothing started.
    folderLock = await lockRunFolder(outDir, flag);
    // Before the target: a port that cannot be had is exit 2 with nothing started.
    const outputs = await startLiveOutputs(config.outputs, {
      say: (text) => (config.quiet ? undefined : stderr.write(terminalText(`coachbench: ${text}\n`))),
      warn: (text) => stderr.write(terminalText(`coachbench: warning: ${text}\n`)),
    });
    try {
      const target = await resolveTarget(config);
      try {
        await untilStopped(
          preflightTarget(target, config, (line) => stderr.write(terminalText(`coachbench: ${line}\n`))),
          stop.signal,
        );
        const session = { config, target, outDir, stop, stoppedBy: () => stoppedBy, stdout, stderr, outputs };
        return config.profile.search ? await runCapacitySearch(session) : await runSession(session);
      } finally {
        await target.embedded?.close();
      }
    } finally {
      await outputs.close();
    }
  } finally {
    await folderLock?.release();
    removeSignalHandler();
  }
}
