/**
 * The bundle takes scripts/undici-subset.js for `undici` (scripts/build.js): undici's
 * dispatchers without the rest its index loads. Each export must be the index's own, and the
 * dispatchers must carry the request API the index gives them, nothing less; an undici upgrade
 * that moves a module fails the build, one that gives the dispatchers more from its index fails here.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const SUBSET = new URL('../../scripts/undici-subset.js', import.meta.url).href;
// A build script's module, untyped: its exports are what this test reads.
const subset = (await import(SUBSET)) as Record<string, unknown>;
const index = (await import('undici')) as Record<string, unknown>;

describe("the bundle's undici", () => {
  it("exports the index's own dispatchers and connector", () => {
    expect(Object.keys(subset).length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(subset)) expect(value, name).toBe(index[name]);
  });

  it('gives the dispatchers what the index gives them', async () => {
    // In a process of its own: the subset first, then the index, the dispatchers' methods read after each.
    const methods = `
      const methodsOf = (classes) => Object.fromEntries(Object.entries(classes).filter(([, c]) => typeof c === 'function' && c.prototype).map(([name, c]) => {
        const names = new Set();
        for (let p = c.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) for (const key of Object.getOwnPropertyNames(p)) names.add(key);
        return [name, [...names].sort()];
      }));
      const subset = await import(${JSON.stringify(SUBSET)});
      const before = methodsOf(subset);
      await import('undici');
      process.stdout.write(JSON.stringify({ before, after: methodsOf(subset) }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', methods], { cwd: new URL('../../', import.meta.url) });
    const { before, after } = JSON.parse(stdout) as Record<'before' | 'after', Record<string, string[]>>;
    expect(before.Agent).toContain('request');
    expect(before).toEqual(after);
  });
});
