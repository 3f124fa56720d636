/**
 * A closed stdout or stderr ends nothing (docs/design.md §2.9, "A closed output"). A reader
 * that stops early (`coachbench profiles | head -2`, a log collector that went away) is
 * normal for a command-line tool; Node ignores SIGPIPE, so each write to the closed pipe
 * comes back as an EPIPE error event, which with no listener is an uncaught exception
 * (exit 4, "internal error"). With these listeners the command goes on: what it writes to
 * the closed stream is dropped, a run still writes its report, and the exit code is the
 * command's own.
 */

/** True for the error of a write to a pipe or socket whose reader is gone. */
export function isClosedOutput(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as NodeJS.ErrnoException).code === 'EPIPE';
}

/**
 * Makes EPIPE on `streams` harmless; any other error on them (a full disk under
 * `> file`, say) is thrown on, to the process's uncaught-exception handler as before.
 * Called once per process, by its entry point.
 */
export function tolerateClosedOutput(streams: readonly NodeJS.WritableStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: unknown) => {
      if (!isClosedOutput(error)) throw error;
    });
  }
}
