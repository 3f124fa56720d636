// Benchmark: what each piece of start-up machinery saves (docs/benchmarks.md, "Start-up
// machinery"). Each build (this checkout, and any other given with --build) is measured as
// built and with one piece taken away at a time, for `coachbench --help`, `coachbench plan
// smoke`, a short `coachbench run` of the smoke profile (embedded target, --duration), and the
// start of a run alone: `coachbench run` of a profile that the schema refuses (exit 2 once the
// CLI, the re-execution, the flags and the profile validator have all done their part, and
// none of the run's load, whose noise would hide tens of milliseconds).
// The variants of a build are copies of its package folder (bin, dist, package.json,
// profiles, schemas; node_modules linked) with one thing changed:
//
//   no bundle             bin/coachbench.js imports dist/cli/main.js instead of dist/bundle/
//   no compiled validators dist/validators/ removed: ajv compiles each schema at run time
//   no re-execution       node is started with the young generation capped, so `run` does not
//                         re-execute itself (the cap stays; only the second Node start goes)
//   no compile cache      NODE_DISABLE_COMPILE_CACHE=1 (builds whose bin/ enabled Node's
//                         compile cache: before issue 29)
//   no help patch         the call that empties yargs' help cache cut from the bundle
//                         (builds that have it: before the patch was removed)
//
// A variant that does not apply to a build (a piece it no longer has) is left out; another
// build is measured as built and without each piece this checkout no longer has, which shows
// what removing those pieces changed. CPU is user+sys of the whole process tree (utime+stime
// of coachbench and every process it reaped, bench/lib/measured-command.js), not wall time:
// the machine may be shared. Within each repetition every command takes its turn, and for each
// every variant one after another; what a piece saves is the median over repetitions of the
// difference within a repetition. One discarded warm-up per variant and command; a build whose
// bin/ enabled Node's compile cache gets a cache of its own per variant, which that fills.
//
//   node bench/startup-machinery.js --help   (its flags, from their declaration below)
//
// A build of an older commit: git archive COMMIT | tar -x -C DIR; ln -s $PWD/node_modules DIR/;
// (cd DIR && npm run build). Results: bench/results/startup-machinery.json (overwritten).

import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseFlags } from './lib/flags.js';
import { outFileIn, runMeasured } from './lib/measured-command.js';
import { median } from './lib/median.js';
import { benchDir } from './lib/processes.js';
import { beginMeasurement, writeResults } from './lib/results.js';
import { rounder } from './lib/round.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    reps: { kind: 'number', default: 9, means: 'repetitions; within each, every command takes its turn with every variant' },
    duration: { kind: 'text', default: '2s', means: 'duration of the short `coachbench run` of the smoke profile' },
    build: {
      kind: 'text',
      value: 'LABEL=DIR',
      repeatable: true,
      check: (value) => (/^[^=]+=.+/.test(value) ? null : 'wants LABEL=DIR'),
      means: 'another built checkout, measured beside this one',
    },
  },
});
const REPS = flags.reps;
const DURATION = flags.duration;
const REPO = new URL('../', import.meta.url).pathname;

/** `--build label=DIR`, repeatable: other built checkouts, measured beside this one. */
function otherBuilds() {
  return flags.build.map((given) => {
    const [label, dir] = given.split('=');
    return { label, root: resolve(dir) };
  });
}

const begun = beginMeasurement();
const dir = await benchDir('startup-machinery');
const round = rounder(3);

const COMMANDS = {
  help: ['--help'],
  plan: ['plan', 'smoke'],
  run: ['run', '--duration', DURATION, '--quiet'],
  runStart: ['run', '--profile', join(dir, 'refused-profile.json'), '--quiet'],
};
await writeFile(join(dir, 'refused-profile.json'), JSON.stringify({ name: 'refused', duration: '2s', chatStreams: { participants: 'many' } }));

/** A copy of the package at `root` under `name`, for one variant to change. */
async function packageCopy(root, name) {
  const copy = join(dir, name);
  await mkdir(copy, { recursive: true });
  for (const entry of ['bin', 'dist', 'package.json', 'profiles', 'schemas']) await cp(join(root, entry), join(copy, entry), { recursive: true });
  await symlink(join(root, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

async function editFile(path, edit) {
  const before = await readFile(path, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`${path}: the edit changed nothing`);
  await writeFile(path, after);
}

/** The variants of the build at `root`, each { name, root, env, commands }; those that do not apply are left out. */
async function variantsOf(label, root) {
  const variants = [{ name: 'as built', root, env: {} }];

  const unbundled = await packageCopy(root, `${label}-no-bundle`);
  // Older builds also loaded their re-execution from the bundle.
  await editFile(join(unbundled, 'bin/coachbench.js'), (text) => text.replace(/\.\.\/dist\/bundle\/(main|young-generation)\.js/g, '../dist/cli/$1.js'));
  variants.push({ name: 'no bundle', root: unbundled, env: {} });

  const unvalidated = await packageCopy(root, `${label}-no-validators`);
  await rm(join(unvalidated, 'dist/validators'), { recursive: true, force: true });
  variants.push({ name: 'no compiled validators', root: unvalidated, env: {} });

  const capped = ['--max-semi-space-size=8', '--min-semi-space-size=8'];
  variants.push({ name: 'no re-execution', root, env: {}, nodeArgs: capped, commands: ['run', 'runStart'] });
  const bin = await readFile(join(root, 'bin/coachbench.js'), 'utf8');
  const cached = bin.includes('enableCompileCache');
  if (cached) variants.push({ name: 'no compile cache', root, env: { NODE_DISABLE_COMPILE_CACHE: '1' } });

  const main = await readFile(join(root, 'dist/bundle/main.js'), 'utf8');
  if (/skipHelpCache\(parser\d*\);/.test(main)) {
    const unpatched = await packageCopy(root, `${label}-no-help-patch`);
    await editFile(join(unpatched, 'dist/bundle/main.js'), (text) => text.replace(/skipHelpCache\(parser\d*\);/, ';'));
    variants.push({ name: 'no help patch', root: unpatched, env: {} });
  }
  // A build whose bin/ enables the compile cache gets one of its own per variant, rather than sharing node_modules/.cache.
  return variants.map((variant, i) => ({ ...variant, build: label, cache: cached ? join(dir, `${label}-cache-${i}`) : null }));
}

let reports = 0;
async function measure(variant, command) {
  const env = { ...(variant.cache ? { NODE_COMPILE_CACHE: variant.cache } : {}), ...variant.env };
  const out = command === 'run' ? ['--out', join(dir, `report-${++reports}`)] : [];
  const args = [...(variant.nodeArgs ?? []), join(variant.root, 'bin/coachbench.js'), ...COMMANDS[command], ...out];
  const result = await runMeasured(process.execPath, args, { env, outFile: outFileIn(dir, command) });
  // A run's verdict (1 for a short run that misses a check) is not the benchmark's concern; 2 and up are,
  // but for the run whose profile is refused on purpose.
  const expected = command === 'runStart' ? [2] : command === 'run' ? [0, 1] : [0];
  if (!expected.includes(result.code))
    throw new Error(`${variant.build} ${variant.name}: coachbench ${COMMANDS[command].join(' ')} exited ${result.code}:\n${result.output}`);
  return result;
}

const THIS = REPO.replace(/\/$/, '');
const builds = [{ label: 'this checkout', root: THIS }, ...otherBuilds()];
const variants = await variantsOf('b0', THIS);
for (const [i, build] of builds.slice(1).entries()) {
  // Another build: as built, and without each piece this checkout no longer has.
  const own = await variantsOf(`b${i + 1}`, build.root);
  variants.push(...own.filter((v) => v.name === 'as built' || !variants.some((mine) => mine.name === v.name)).map((v) => ({ ...v, build: build.label })));
}
const variantsLabelled = variants.map((v) => ({ ...v, build: v.build === 'b0' ? 'this checkout' : v.build }));
// Grouped by command, so that the variants a difference pairs run one after another.
const cells = Object.keys(COMMANDS).flatMap((command) =>
  variantsLabelled.filter((v) => (v.commands ?? Object.keys(COMMANDS)).includes(command)).map((variant) => ({ variant, command, cpu: [], wall: [] })),
);

for (const cell of cells) await measure(cell.variant, cell.command); // warm-up: fills each variant's compile cache
for (let rep = 0; rep < REPS; rep++) {
  // Every other repetition in reverse, so that no cell always follows the same one.
  const order = rep % 2 === 0 ? cells : [...cells].reverse();
  for (const cell of order) {
    const result = await measure(cell.variant, cell.command);
    cell.cpu.push(result.cpuSeconds);
    cell.wall.push(result.wallSeconds);
  }
  console.log(`rep ${rep + 1}/${REPS} done`);
}

const cellOf = (build, name, command) => cells.find((c) => c.variant.build === build && c.variant.name === name && c.command === command);
/** Median over repetitions of (this cell − that cell): a slow spell of the machine falls on both sides of each difference. */
const pairedDelta = (cell, other) => (other && other !== cell ? round(median(cell.cpu.map((cpu, rep) => cpu - other.cpu[rep]))) : null);
const table = cells.map((cell) => {
  const { variant, command, cpu, wall } = cell;
  return {
    build: variant.build,
    variant: variant.name,
    command: `coachbench ${COMMANDS[command].join(' ').replaceAll(dir, '<tmp>')}`,
    medianCpuSeconds: round(median(cpu)),
    // What the piece saves: this variant (without it) minus its build as built, paired per repetition; negative: it costs.
    savesCpuSeconds: pairedDelta(cell, cellOf(variant.build, 'as built', command)),
    // This variant minus this checkout as built, paired: how an older build differs from the current one.
    vsThisCheckoutCpuSeconds: variant.build === 'this checkout' ? null : pairedDelta(cell, cellOf('this checkout', 'as built', command)),
    medianWallSeconds: round(median(wall)),
    cpuSeconds: cpu,
  };
});
const shown = (value) => (value === null ? '' : `${value >= 0 ? '+' : ''}${value.toFixed(3)}`);
for (const row of table) {
  console.log(
    `${row.build.padEnd(14)} ${row.variant.padEnd(24)} ${row.command.padEnd(36)} ${row.medianCpuSeconds.toFixed(3)} s ${shown(row.savesCpuSeconds).padStart(7)} ${shown(row.vsThisCheckoutCpuSeconds).padStart(7)}`,
  );
}

await writeResults('startup-machinery', begun, {
  goal: 'keep a piece of start-up machinery only if it saves more than ~50 ms of CPU, or is needed for correctness (issue 29)',
  builds: builds.map(({ label, root }) => ({ label, root: root === THIS ? 'this checkout' : root })),
  method: {
    cpu: 'utime+stime of coachbench and every process it reaped, from /proc (bench/lib/measured-command.js); no CPU pinning',
    repetitions: `${REPS}; within each, every command in turn and for each every variant one after another, every other repetition in reverse order; one discarded warm-up per cell fills its compile cache`,
    statistics:
      'medianCpuSeconds: median over repetitions; savesCpuSeconds and vsThisCheckoutCpuSeconds: median over repetitions of the difference between two cells of the same repetition',
    commands: Object.fromEntries(Object.entries(COMMANDS).map(([name, args]) => [name, `coachbench ${args.join(' ').replaceAll(dir, '<tmp>')}`])),
    variants:
      'no bundle: bin imports dist/cli/main.js; no compiled validators: dist/validators removed; no re-execution: node --max-semi-space-size=8 --min-semi-space-size=8 bin/coachbench.js (the cap kept, the second Node start skipped); no compile cache: NODE_DISABLE_COMPILE_CACHE=1 (builds whose bin/ enabled it); no help patch: the skipHelpCache call cut from the bundle',
    machine: 'shared by other engineers while measured: compare CPU medians, not wall time',
  },
  table,
});
