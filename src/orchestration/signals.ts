/**
 * vegeta-style signals: the first SIGINT/SIGTERM stops the run gracefully (streams closed,
 * partial report written, exit 130); the handler is then removed, so a second signal gets
 * Node's default behaviour and ends the process at once.
 */
export function onStopSignal(stop: () => void): () => void {
  const handler = (): void => {
    remove();
    stop();
  };
  const remove = (): void => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return remove;
}
