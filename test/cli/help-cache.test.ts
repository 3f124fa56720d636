/**
 * yargs renders a command's help when it starts the command; main.ts stops that unless help
 * is asked for (src/cli/help-cache.ts). These tests hold the yargs internals it relies on:
 * were they renamed, skipHelpCache would silently do nothing, and the first test would fail.
 * That --help still shows the whole help of a command: test/e2e/cli.test.ts.
 */

import { describe, expect, it } from 'vitest';
import yargs, { type Argv } from 'yargs';
import { asksForHelp, skipHelpCache } from '../../src/cli/help-cache.js';

function parser(argv: string[]): Argv {
  return yargs(argv)
    .command(
      'go',
      'a command',
      (y) => y.option('flag', { type: 'string', describe: 'a flag with a description to wrap' }),
      () => undefined,
    )
    .exitProcess(false);
}

/** Whether yargs kept a rendered help text after parsing. */
function helpCached(instance: Argv): boolean {
  const internals = instance as unknown as { getInternalMethods(): { getUsageInstance(): { hasCachedHelpMessage(): boolean } } };
  return internals.getInternalMethods().getUsageInstance().hasCachedHelpMessage();
}

describe('the help yargs renders when a command starts', () => {
  it('is rendered by yargs unless skipped, and not when skipped', async () => {
    const plain = parser(['go', '--flag', 'x']);
    await plain.parseAsync();
    expect(helpCached(plain)).toBe(true);

    const skipped = parser(['go', '--flag', 'x']);
    skipHelpCache(skipped);
    await skipped.parseAsync();
    expect(helpCached(skipped)).toBe(false);
  });

  it('is skipped only when the command line does not ask for help', () => {
    expect(asksForHelp(['run', '--profile', 'smoke'])).toBe(false);
    expect(asksForHelp(['run', '--help'])).toBe(true);
    expect(asksForHelp(['run', '-h'])).toBe(true);
  });
});
