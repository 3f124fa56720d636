/**
 * yargs renders a command's whole help text every time it starts the command
 * (`usage.cacheHelpMessage`, kept in case the command later asks to show it): for `run`, with
 * its forty-odd flags, wrapping that text costs CPU on every run that nobody reads (docs/benchmarks.md, "Figures behind the code").
 * coachbench never shows help from inside a command (a usage error is one line, main.ts), so
 * unless the command line asks for help the cache is left empty, as the Angular CLI does
 * (angular/angular-cli#34087). It reaches into yargs' internals, so it does nothing when they
 * are not there (test/cli/help-cache.test.ts notices that).
 */
import type { Argv } from 'yargs';

/** The yargs 18 internals this touches. */
interface UsageInternals {
  getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } };
}

/** True when `argv` asks for help, which yargs then renders from the same usage instance. */
export function asksForHelp(argv: readonly string[]): boolean {
  return argv.some((arg) => arg === '--help' || arg === '-h' || arg.startsWith('--help='));
}

/** Stops `parser` from rendering a command's help when the command starts. */
export function skipHelpCache(parser: Argv): void {
  const usage = (parser as unknown as UsageInternals).getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
}
