/**
 * `run` executes the bundle (scripts/build.js, docs/design.md "Build"): the CLI, its request
 * thread and its worker processes load their code from dist/bundle/, and nothing from dist/'s
 * unbundled modules or from node_modules but the runtime helpers of ajv's compiled validators;
 * bin/ adds its own two files (the entry and the young generation's re-execution). A module
 * loaded beside the bundle (a require() that a bundle cannot follow, a worker entry not in the
 * bundle) is one more module to load on every start.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { runBin } from '../support/bin-helpers.js';
import { profileFile, quickProfile } from '../support/profiles.js';

const RECORDER = new URL('../support/record-loads.mjs', import.meta.url).pathname;

/** Where each loaded file lies, relative to the package root. */
const ALLOWED = [
  /^bin\/(coachbench|young-generation)\.js$/,
  /^dist\/bundle\/[\w-]+\.js$/,
  /^dist\/validators\/[\w-]+\.cjs$/,
  /^node_modules\/ajv\/dist\/runtime\/\w+\.js$/,
];

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-bundle-'));
});

describe('the bundle', () => {
  it('is all that a run with worker processes loads', async () => {
    const log = join(dir, 'loads.txt');
    // Open-model uploads run on each worker's request thread. What this run is held to is the
    // files it loads, so it gets the timing slack other runs not about timing get: three
    // processes and the load recorder on two cores once read a 730 ms KEEP_ALIVE gap in CI.
    const profile = await profileFile(
      dir,
      'profile',
      quickProfile({
        duration: '2s',
        keepAliveTolerance: '60%',
        generator: { maxEventLoopDelayP99: '2s' },
        photoUpload: { enabled: true, model: 'open', ratePerSec: 10, imageSizes: ['4KiB'] },
      }),
    );
    const result = await runBin(['run', '--profile', profile, '--workers', '2', '--out', join(dir, 'report')], {
      env: { NODE_OPTIONS: `--import ${RECORDER}`, COACHBENCH_RECORD_LOADS: log },
    });
    expect(result.code, result.stderr).toBe(0);

    const loads = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => {
        const [pid, url] = line.split(' ') as [string, string];
        return { pid, path: url.startsWith(PACKAGE_ROOT.href) ? url.slice(PACKAGE_ROOT.href.length) : url };
      });
    expect(loads.filter(({ path }) => !ALLOWED.some((allowed) => allowed.test(path))).map(({ path }) => path)).toEqual([]);

    const processesLoading = (file: string): number => new Set(loads.filter(({ path }) => path === `dist/bundle/${file}`).map(({ pid }) => pid)).size;
    expect(processesLoading('main.js')).toBe(1);
    expect(processesLoading('driver-worker-main.js')).toBe(2);
    expect(processesLoading('request-thread-main.js')).toBe(2);
    // The compiled profile validator requires the bundle's formats module, not dist/'s copy.
    expect(processesLoading('profile-formats.js')).toBe(1);
  });

  it("takes Node's built-in modules through require(), never through an ES import", async () => {
    // An ES import of node:http reads every export of its ES facade, the lazy ones that load
    // Node's own undici too (scripts/build.js, docs/benchmarks.md "A run's fixed cost").
    const bundleDir = new URL('dist/bundle/', PACKAGE_ROOT);
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
    const imported: string[] = [];
    for (const file of (await readdir(bundleDir)).filter((name) => name.endsWith('.js'))) {
      const code = await readFile(new URL(file, bundleDir), 'utf8');
      for (const [, from, bare] of code.matchAll(/^import\s[^'"]*?from\s*["']([^"']+)["']|^import\s*["']([^"']+)["']/gm)) {
        const specifier = (from ?? bare) as string;
        if (builtins.has(specifier)) imported.push(`${file}: ${specifier}`);
      }
    }
    // The banner's createRequire is the one ES import of a built-in each file keeps: it is what require() is.
    expect(imported.filter((line) => !line.endsWith(': node:module'))).toEqual([]);
    expect(imported.length).toBeGreaterThan(0);
  });

  it('loads without building an Intl service, whose first one starts ICU', async () => {
    // string-width's copies are required on their first call and histograms.hlog's numbers are
    // written without hdr-histogram-js's log writer (scripts/build.js, src/metrics/hlog-number.ts).
    const counting = `
      const built = [];
      for (const name of ['Segmenter', 'NumberFormat', 'Collator', 'DateTimeFormat', 'PluralRules', 'ListFormat']) {
        const Real = Intl[name];
        Intl[name] = class extends Real { constructor(...args) { super(...args); built.push(name); } };
      }
      await import(${JSON.stringify(new URL('dist/bundle/main.js', PACKAGE_ROOT).href)});
      process.stdout.write(JSON.stringify(built));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', counting]);
    expect(JSON.parse(stdout)).toEqual([]);
  });
});
