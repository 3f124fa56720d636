import type { Argv } from 'yargs';

/**
 * One CLI command. `builder` declares its flags; `run` does the work and returns the
 * exit code. Only bin/coachbench.js turns that code into process.exit.
 */
export interface CliCommand<A = Record<string, unknown>> {
  /** yargs command string, e.g. `serve` or `report <report>`. */
  command: string;
  describe: string;
  builder: (yargs: Argv) => Argv<A>;
  run: (args: A) => Promise<number>;
}

/** Lets a command module keep its own typed args while main.ts holds a list of them. */
export function defineCommand<A>(command: CliCommand<A>): CliCommand<A> {
  return command;
}
