// The build after tsc (`npm run build`): the start-up machinery of the CLI lives here and in
// bin/, and each step is kept because it saves a run more CPU than it costs to keep
// (docs/benchmarks.md, "Start-up machinery"):
//
// 1. Compiled validators: every JSON Schema a run validates with becomes ajv's standalone code,
//    dist/validators/<name>.cjs, with the hash of the spec it came from, so that a run loads a
//    plain function instead of ajv and a schema compilation (src/util/precompiled-validator.ts
//    loads them, and compiles at run time when a hash does not match).
// 2. The bundle: the compiled CLI and the entry points of its worker threads and processes,
//    bundled with esbuild into dist/bundle/, the code that bin/coachbench.js and its workers run
//    (docs/design.md, "Build").
//
//   node scripts/build.js
import { mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _ } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { build } from 'esbuild';
import { profileValidatorSpec } from '../dist/contract/profile/load-profile.js';
import { reportValidatorSpec } from '../dist/contract/validate-report.js';
import { EVENT_VALIDATOR_SPECS } from '../dist/drivers/chat/event-validator.js';
import { ajvFor, compiledValidatorPath, specHash } from '../dist/util/precompiled-validator.js';

const root = fileURLToPath(new URL('../', import.meta.url));

// 1. Compiled validators.
const SPECS = [profileValidatorSpec(), reportValidatorSpec(), ...Object.values(EVENT_VALIDATOR_SPECS)];
for (const spec of SPECS) {
  const path = compiledValidatorPath(spec.name);
  // The standalone code requires the formats module by a path relative to itself.
  const formatsFrom = spec.formats ? relative(dirname(path), spec.formats.compiledModule) : null;
  const code = formatsFrom === null ? { source: true } : { source: true, formats: _`require(${`./${formatsFrom}`}).formats` };
  const ajv = ajvFor(spec, code);
  const source = standalone.default(ajv, ajv.compile(spec.schema));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${source}\nmodule.exports.schemaHash = ${JSON.stringify(specHash(spec))};\n`);
}
console.log(`build: ${SPECS.length} validators compiled to ${relative(process.cwd(), dirname(compiledValidatorPath('x')))}/`);

// 2. The bundle.
const outdir = `${root}dist/bundle`;

/**
 * Entry name -> compiled module. Workers find their entry beside the module that starts them
 * (util/compiled-sibling.ts), so every entry and chunk lies flat in dist/bundle/, each entry
 * under the file name the unbundled dist/ gives it.
 */
const ENTRIES = {
  main: 'dist/cli/main.js',
  'request-thread-main': 'dist/orchestration/workers/request-thread-main.js',
  'driver-worker-main': 'dist/orchestration/workers/driver-worker-main.js',
  'service-worker-main': 'dist/reference-service/cluster/service-worker-main.js',
  // Required by the compiled profile validator (dist/validators/profile.cjs, step 1).
  'profile-formats': 'dist/contract/profile/profile-formats.js',
};

/**
 * Node's built-in modules, imported by the bundle's ES modules through require(). An `import`
 * of a built-in makes Node build the module's ES facade, which reads every export, the lazy
 * ones too: node:http's load Node's own copy of undici and the web streams, node:crypto's the
 * Web Crypto API, node:fs's its streams, CPU in every process and thread that loads the bundle
 * (docs/benchmarks.md, "A run's fixed cost"). Through require(), as the bundled CommonJS
 * packages take them, the modules are the same objects without that cost.
 */
const BUILTIN = new RegExp(`^(node:)?(${builtinModules.map((name) => name.replace(/[/]/g, '\\/')).join('|')})$`);
const builtinsThroughRequire = {
  name: 'builtins-through-require',
  setup(bundle) {
    bundle.onResolve({ filter: BUILTIN }, (args) =>
      args.kind === 'import-statement' ? { path: args.path.replace(/^(node:)?/, 'node:'), namespace: 'builtin-through-require' } : undefined,
    );
    bundle.onLoad({ filter: /.*/, namespace: 'builtin-through-require' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * string-width (yargs', cliui's and wrap-ansi's copies) builds an `Intl.Segmenter`, and with it
 * ICU's start, and Unicode-property regular expressions when it loads, in every command,
 * though it measures text only when help or a usage error is printed (docs/benchmarks.md, "A
 * run's fixed cost"). Each copy is bundled behind a function that requires it on its first
 * call: esbuild evaluates a module that the bundle reaches through require() when it is first
 * required, not when the bundle loads. The copy and its answers are the package's own.
 */
const STRING_WIDTH_ON_FIRST_USE = 'string-width-on-first-use';
const stringWidthOnFirstUse = {
  name: STRING_WIDTH_ON_FIRST_USE,
  setup(bundle) {
    bundle.onResolve({ filter: /^string-width$/ }, async (args) => {
      if (args.pluginData === STRING_WIDTH_ON_FIRST_USE) return undefined;
      const real = await bundle.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: STRING_WIDTH_ON_FIRST_USE,
      });
      return real.errors.length > 0 ? { errors: real.errors } : { path: relative(root, real.path), namespace: STRING_WIDTH_ON_FIRST_USE };
    });
    bundle.onLoad({ filter: /.*/, namespace: STRING_WIDTH_ON_FIRST_USE }, (args) => ({
      contents: `export default function stringWidth(...args) { return require('./index.js').default(...args); }`,
      resolveDir: dirname(`${root}${args.path}`),
      loader: 'js',
    }));
  },
};

/**
 * undici's index loads the whole of undici when it loads (fetch, WebSocket, EventSource, the
 * caches, the mocks, the interceptors), where coachbench uses its dispatchers and their request
 * API (docs/benchmarks.md, "A run's fixed cost"): the bundle's `undici` is those modules alone,
 * scripts/undici-subset.js. A name the code imports and the subset lacks fails the build.
 */
const undiciSubset = {
  name: 'undici-subset',
  setup(bundle) {
    bundle.onResolve({ filter: /^undici$/ }, () => ({ path: `${root}scripts/undici-subset.js` }));
  },
};

await rm(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, `${root}${path}`])),
  outdir,
  bundle: true,
  // Shared code goes to chunks, and a lazy import() (the live outputs, the embedded target) stays lazy.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  chunkNames: 'chunk-[hash]',
  // jsonc-parser's `main` is a UMD build that require()s its own files by relative paths, which
  // a bundle cannot resolve; its ES module build bundles as any other.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  // Bundled CommonJS packages (autocannon's connection, undici) call require(); an ES module has none.
  banner: { js: "import { createRequire as __coachbenchRequire } from 'node:module'; const require = __coachbenchRequire(import.meta.url);" },
  // Linked maps for `node --enable-source-maps` and bench/cpu-profile.js; a run does not read them.
  sourcemap: 'linked',
  plugins: [builtinsThroughRequire, stringWidthOnFirstUse, undiciSubset],
  metafile: true,
  logLevel: 'warning',
});
if (result.errors.length > 0 || result.warnings.length > 0) process.exit(1);
const outputs = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js'));
console.log(`build: bundle of ${Object.keys(ENTRIES).length} entries, ${outputs.length} files in ${relative(process.cwd(), outdir)}/`);
