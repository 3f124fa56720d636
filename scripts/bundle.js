// Build step (`npm run build`, after tsc and build-validators): bundles the compiled CLI and
// the entry points of its worker threads and processes into dist/bundle/, the code that
// bin/coachbench.js and its workers run: a few files instead of hundreds of modules loaded one
// by one (docs/design.md, "Build"; what it saves: docs/benchmarks.md, "Figures behind the code").
//
//   node scripts/bundle.js
import { rm } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const outdir = `${root}dist/bundle`;

/**
 * Entry name -> compiled module. Workers find their entry beside the module that starts them
 * (util/compiled-sibling.ts), so every entry and chunk lies flat in dist/bundle/, each entry
 * under the file name the unbundled dist/ gives it.
 */
const ENTRIES = {
  main: 'dist/cli/main.js',
  'young-generation': 'dist/cli/young-generation.js',
  'request-thread-main': 'dist/orchestration/workers/request-thread-main.js',
  'driver-worker-main': 'dist/orchestration/workers/driver-worker-main.js',
  'service-worker-main': 'dist/reference-service/cluster/service-worker-main.js',
  // Required by the compiled profile validator (dist/validators/profile.cjs, src/cli/build-validators.ts).
  'profile-formats': 'dist/contract/profile/profile-formats.js',
};

await rm(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, `${root}${path}`])),
  outdir,
  bundle: true,
  // Shared code goes to chunks, and a lazy import() (compare, the chat driver, outputs) stays lazy.
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
  metafile: true,
  logLevel: 'warning',
});
if (result.errors.length > 0 || result.warnings.length > 0) process.exit(1);
const outputs = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js'));
console.log(`bundle: ${Object.keys(ENTRIES).length} entries, ${outputs.length} files in ${relative(process.cwd(), outdir)}/`);
