/**
 * The driver's V8 young generation, capped (docs/design.md §6, "Garbage collection"). Every
 * scavenge stops the loop that times requests for as long as it takes to copy what survived,
 * and at thousands of requests a second undici's request objects survive at ~8-10 MB/s whatever
 * the young generation's size. V8's default (semi-spaces that grow to 64 MiB on a machine of
 * 24 GiB; the limit scales with the heap's) collects them in one pause about every second
 * (9-16 ms at the median, up to 35 ms, 110 ms on a busy machine), an 8 MiB cap in seven or eight
 * of 2-3 ms, and a request answered during a pause is timed late by it
 * (bench/results/open-error*.json, `gc`; docs/throughput.md). V8 reads the size once, when the
 * process starts, so `run` re-executes itself with the flag: process.execve keeps the PID, the
 * open descriptors and the signals, and costs one more Node start-up before anything loads.
 * The young generation starts at the cap too: growing to it from V8's 1 MiB start took six more
 * scavenges while the CLI loaded, ~10 ms of a run's fixed CPU (docs/throughput.md).
 */

/** The cap, MiB per semi-space: the open model's p99 reached the bare client's at 8, for 0-10 % more CPU; 1, 2 and 4 did no better. */
export const DRIVER_SEMI_SPACE_MIB = 8;

const FLAG = '--max-semi-space-size';
const START_FLAG = '--min-semi-space-size';

/** The command a CLI argv names: its first word that is not an option. */
function commandOf(args: readonly string[]): string | undefined {
  return args.find((arg) => !arg.startsWith('-'));
}

const setsFlag = (options: readonly string[]): boolean => options.some((option) => option === FLAG || option.startsWith(`${FLAG}=`));

/**
 * The argv to re-execute this process with (execPath first, as execve wants it), or null when
 * it runs as it should already: not `run`, or the young generation is chosen already, by a
 * previous pass or by the user (NODE_OPTIONS or node's own options take precedence).
 */
export function relaunchArgv(current: Pick<NodeJS.Process, 'argv' | 'execArgv' | 'execPath' | 'env'>): string[] | null {
  const [, script, ...args] = current.argv;
  if (script === undefined || commandOf(args) !== 'run') return null;
  if (setsFlag(current.execArgv) || setsFlag((current.env.NODE_OPTIONS ?? '').split(/\s+/))) return null;
  return [current.execPath, `${FLAG}=${DRIVER_SEMI_SPACE_MIB}`, `${START_FLAG}=${DRIVER_SEMI_SPACE_MIB}`, ...current.execArgv, script, ...args];
}

/**
 * Re-executes `run` with the young generation capped; returns when there is nothing to do, or
 * no way to do it (Windows, Node before 22.15): the run then goes on with V8's default size.
 */
export function relaunchForRun(): void {
  const argv = relaunchArgv(process);
  if (argv === null || typeof process.execve !== 'function') return;
  try {
    process.execve(argv[0] as string, argv, process.env);
  } catch {
    // Not fatal: the cap only shortens the driver's GC pauses.
  }
}
