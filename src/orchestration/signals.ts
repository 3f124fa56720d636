/**
 * vegeta-style signals: the first SIGINT/SIGTERM stops the run gracefully (streams closed,
 * partial report written, exit 130 for SIGINT, 143 for SIGTERM: docs/design.md §2.8); the
 * handler is then removed, so a second signal gets Node's default behaviour and ends the
 * process at once.
 */
import { ExitCode } from '../util/errors.js';

/** The signals that stop a run. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/** Calls `stop` with the first stop signal received; returns a function that removes the handler. */
export function onStopSignal(stop: (signal: StopSignal) => void): () => void {
  const handler = (signal: NodeJS.Signals): void => {
    remove();
    stop(signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');
  };
  const remove = (): void => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return remove;
}

/** 130 for SIGINT, 143 for SIGTERM (128 + the signal's number, as a shell reports it). */
export function exitCodeOfSignal(signal: StopSignal): number {
  return signal === 'SIGTERM' ? ExitCode.terminated : ExitCode.interrupted;
}

/**
 * A run stopped before its load began (the report folder check, the embedded target's
 * start, the first token command, the reachability check): the CLI prints the message as
 * one line and exits with the signal's code; there is no report, and no report folder this
 * run made is left behind (docs/design.md §2.8).
 */
export class StoppedBeforeLoad extends Error {
  readonly exitCode: number;
  constructor(readonly signal: StopSignal) {
    super(`stopped by ${signal} before the load started; no report was written`);
    this.name = 'StoppedBeforeLoad';
    this.exitCode = exitCodeOfSignal(signal);
  }
}
