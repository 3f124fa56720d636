/**
 * The Node version guard of bin/coachbench.js (docs/design.md §2.10): on a Node older than
 * package.json's engines, every command says so in one line and exits 2. The old Node comes
 * from COACHBENCH_OLD_NODE (.ci/run fetches Node 20 from the npm registry and sets it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/bin-helpers.js';

const engines = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } }).engines.node;
const oldNode = process.env.COACHBENCH_OLD_NODE;
const oldNodeUsable = oldNode !== undefined && existsSync(oldNode);

describe('node version guard', () => {
  it('package.json states the minimum in the one form bin/ reads', () => {
    expect(engines).toMatch(/^>=\d+\.\d+(\.\d+)?$/);
  });

  it('lets the running Node through', () => {
    const result = spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
  });

  it.skipIf(!oldNodeUsable)('refuses an older Node in one line, exit 2, for every command (COACHBENCH_OLD_NODE unset: .ci/run sets it)', () => {
    const version = spawnSync(oldNode as string, ['--version'], { encoding: 'utf8' }).stdout.trim();
    expect(Number(version.slice(1).split('.')[0])).toBeLessThan(22);
    for (const args of [['--version'], ['--help'], ['run', '--duration', '1s'], ['serve'], ['plan', 'smoke'], []]) {
      const result = spawnSync(oldNode as string, [BIN, ...args], { encoding: 'utf8', timeout: 10_000 });
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`coachbench needs Node ${engines.replace('>=', '>= ')}; this is ${version}\n`);
    }
  });
});
