/**
 * vegeta-style signals: the first SIGINT/SIGTERM stops the run gracefully (streams closed,
 * partial report written, exit 130 for SIGINT, 143 for SIGTERM: docs/design.md §2); the
 * handler is then removed, so a second signal gets Node's default behaviour and ends the
 * process at once.
 */

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
