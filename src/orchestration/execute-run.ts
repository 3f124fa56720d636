/**
 * `coachbench run`, end to end: check the report folder, resolve the target, stop on the
 * first SIGINT/SIGTERM, and run one session (or a capacity search of many). Returns the exit
 * code of docs/design.md §2; never exits.
 */
import { rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { terminalText } from '../util/printable.js';
import { runCapacitySearch } from './capacity/capacity-search.js';
import { prepareOutputDir } from './output-dir.js';
import { startLiveOutputs } from './outputs/start-outputs.js';
import type { RunConfig } from './run-config.js';
import { lockRunFolder, type RunFolderLock } from './run-folder-lock.js';
import { defaultRunId, type RunOutcome, runSession, settleLateStop } from './run-session.js';
import { preflightTarget, resolveTarget } from './run-target.js';
import { onStopSignal, StoppedBeforeLoad, type StopSignal } from './signals.js';

/**
 * Resolves with `work`, or as soon as `signal` aborts: a stop signal must not wait for a
 * target that takes its time to answer the reachability check.
 */
function untilStopped(work: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) {
    // Its failure, once the target is closed under it, is no news: it must not go unhandled (exit 4).
    work.catch(() => undefined);
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, (error: unknown) => (signal.aborted ? resolve() : reject(error))).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** True when `path` exists (as anything): a report folder that was there before is never removed. */
const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Checks the report folder, resolves the target, stops on the first SIGINT/SIGTERM, and runs one session (or a capacity search). */
export async function executeRun(
  config: RunConfig,
  stderr: NodeJS.WriteStream = process.stderr,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<RunOutcome> {
  // From the first moment: a signal while the target starts still ends the run gracefully.
  const stop = new AbortController();
  // Unlike `stop`, which the run's own end aborts too, only a signal: it shortens a drain under way.
  const hurry = new AbortController();
  let stoppedBy: StopSignal | null = null;
  const removeSignalHandler = onStopSignal((signal) => {
    stoppedBy = signal;
    stop.abort();
    hurry.abort();
  });
  const outDir = config.outDir ?? join('reports', defaultRunId(config.profile.name, new Date()));
  const flag = config.outDir === null ? 'report folder' : '--out';
  let madeOutDir = false;
  let sessionBegan = false;
  let folderLock: RunFolderLock | null = null;
  try {
    madeOutDir = !(await exists(outDir));
    await prepareOutputDir(outDir, flag);
    // Before the target: a folder another run is writing is exit 2 with nothing started.
    folderLock = await lockRunFolder(outDir, flag);
    // Before the target: a port that cannot be had is exit 2 with nothing started.
    // A line that must be seen, and one that only informs, which --quiet silences (docs/design.md §2.2).
    const tell = (text: string): void => void stderr.write(terminalText(`coachbench: ${text}\n`));
    const say = (text: string): void => (config.quiet ? undefined : tell(text));
    const outputs = await startLiveOutputs(config.outputs, {
      say,
      tell,
      warn: (text) => tell(`warning: ${text}`),
    });
    let outcome: RunOutcome;
    try {
      const target = await resolveTarget(config, stop.signal);
      try {
        if (stoppedBy !== null) throw new StoppedBeforeLoad(stoppedBy);
        // Which API key is used only informs.
        await untilStopped(preflightTarget(target, config, say), stop.signal);
        if (stoppedBy !== null) throw new StoppedBeforeLoad(stoppedBy);
        sessionBegan = true;
        const session = { config, target, outDir, stop, hurry: hurry.signal, stoppedBy: () => stoppedBy, stdout, stderr, outputs };
        outcome = config.profile.search ? await runCapacitySearch(session) : await runSession(session);
      } finally {
        await target.embedded?.close();
      }
    } finally {
      await outputs.close(hurry.signal);
    }
    const settled = await settleLateStop(outcome, stoppedBy, { stdout, stderr });
    // A signal while the late stop was being settled would be lost: take the handler away first
    // (a signal after this is Node's own, ending the process by it), then settle once more.
    // libuv catches a signal at once but hands it to its listener only when the loop next
    // polls: one turn of the loop first, or a signal caught since the last poll dies with the handler.
    await new Promise((resolve) => setImmediate(resolve));
    removeSignalHandler();
    return await settleLateStop(settled, stoppedBy, { stdout, stderr });
  } catch (error) {
    // Ended before any load, by a stop or by an error (a target not reached, a credential
    // refused, a port taken, a --start-at that passed): no report folder left behind
    // (docs/design.md §2.8, §2.9). The lock goes first, then the folder this run made if it is
    // still empty: rmdir removes nothing a session already wrote.
    await folderLock?.release();
    folderLock = null;
    if (madeOutDir) await rmdir(outDir).catch(() => undefined);
    // Stopped before any load (§2.8): whatever the stop cut short, one line and the signal's code.
    // A session stops before any load only at its --start-at barrier, and says so itself.
    if (stoppedBy === null || (sessionBegan && !(error instanceof StoppedBeforeLoad))) throw error;
    throw error instanceof StoppedBeforeLoad ? error : new StoppedBeforeLoad(stoppedBy);
  } finally {
    await folderLock?.release();
    removeSignalHandler();
  }
}
