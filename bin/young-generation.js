/**
 * The driver's V8 young generation, capped (docs/design.md §6, "Garbage collection"). Every
 * scavenge stops the loop that times requests for as long as it takes to copy what survived,
 * and at thousands of requests a second undici's request objects survive whatever the young
 * generation's size: V8's default lets the semi-spaces grow large and collects them in rare
 * long pauses, a small cap in short frequent ones, and a request answered during a pause is
 * timed late by it (docs/throughput.md). V8 reads the size once, when the process starts, so
 * `run` re-executes itself with the flag: process.execve keeps the PID, the open descriptors
 * and the signals, and costs one more Node start-up before anything loads (docs/benchmarks.md,
 * "Start-up machinery"). The young generation starts at the cap too, rather than growing to
 * it while the CLI loads.
 */

/** The cap, MiB per semi-space (docs/throughput.md: the smallest that gave the open model the bare client's p99). */
export const DRIVER_SEMI_SPACE_MIB = 8;

const FLAG = '--max-semi-space-size';
const START_FLAG = '--min-semi-space-size';

/** The command a CLI argv names: its first word that is not an option. */
const commandOf = (args) => args.find((arg) => !arg.startsWith('-'));

const setsFlag = (options) => options.some((option) => option === FLAG || option.startsWith(`${FLAG}=`));

/**
 * The argv to re-execute this process with (execPath first, as execve wants it), or null when
 * it runs as it should already: not `run`, or the young generation is chosen already, by a
 * previous pass or by the user (NODE_OPTIONS or node's own options take precedence).
 *
 * @param {Pick<NodeJS.Process, 'argv' | 'execArgv' | 'execPath' | 'env'>} current
 * @returns {string[] | null}
 */
export function relaunchArgv(current) {
  const [, script, ...args] = current.argv;
  if (script === undefined || commandOf(args) !== 'run') return null;
  if (setsFlag(current.execArgv) || setsFlag((current.env.NODE_OPTIONS ?? '').split(/\s+/))) return null;
  return [current.execPath, `${FLAG}=${DRIVER_SEMI_SPACE_MIB}`, `${START_FLAG}=${DRIVER_SEMI_SPACE_MIB}`, ...current.execArgv, script, ...args];
}

/**
 * Re-executes `run` with the young generation capped; returns when there is nothing to do, or
 * no way to do it (Windows, Node before 22.15): the run then goes on with V8's default size.
 */
export function relaunchForRun() {
  const argv = relaunchArgv(process);
  if (argv === null || typeof process.execve !== 'function') return;
  try {
    process.execve(argv[0], argv, process.env);
  } catch {
    // Not fatal: the cap only shortens the driver's GC pauses.
  }
}
