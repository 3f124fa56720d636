/** Process exit codes, fixed by docs/design.md §2. Each means one thing. */
export const ExitCode = {
  /** Every check and threshold passed. */
  ok: 0,
  /** A check or threshold failed (the report is written). */
  failed: 1,
  /** Something the user gave is wrong: a flag, path, profile, fixtures or report file. */
  usage: 2,
  /** The target could not be reached or the run could not start. */
  unreachable: 3,
  /** A defect in coachbench itself. */
  internal: 4,
  /** Stopped by SIGINT (128 + 2); the partial report is written. */
  interrupted: 130,
  /** Stopped by SIGTERM (128 + 15); the partial report is written. */
  terminated: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * A usage or configuration problem (bad flag, profile, fixtures, threshold).
 * The CLI prints `message` as one line and exits 2; never a stack trace.
 */
export class ConfigError extends Error {
  readonly exitCode = ExitCode.usage;
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** The target could not be reached or the run could not start (exit 3). */
export class StartError extends Error {
  readonly exitCode = ExitCode.unreachable;
  constructor(message: string) {
    super(message);
    this.name = 'StartError';
  }
}

/** Collects every problem, then fails once (k6 `Validate() []error` style). */
export class ProblemList {
  private readonly problems: string[] = [];
  add(where: string, what: string): void {
    this.problems.push(`${where}: ${what}`);
  }
  get count(): number {
    return this.problems.length;
  }
  /** Throws one ConfigError listing every problem (joined with `; ` to stay one line). */
  throwIfAny(prefix: string): void {
    if (this.problems.length === 0) return;
    throw new ConfigError(`${prefix}: ${this.problems.join('; ')}`);
  }
}
