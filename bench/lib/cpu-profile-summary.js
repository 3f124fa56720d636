// Where a V8 CPU profile (.cpuprofile, from node --cpu-prof) spent its samples, by owner: a
// package under node_modules, one of our dist/ folders, a Node built-in module, or V8 itself
// (garbage collector, "(program)": compiling and runtime calls not charged to a function).
// Native functions without a script (writev, a Buffer copy) are charged to the owner of the JS
// that called them, so a socket write made by undici counts as undici's. A frame in the CLI's
// bundle (dist/bundle/, scripts/build.js) is charged where its source map says the code came
// from: the package it was bundled from, or our TypeScript module (the bundle's map follows
// dist/'s own maps back to src/).

import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const IDLE = '(idle)';

/**
 * The main thread's profiles in `dir`, oldest first: file names end in
 * .<pid>.<thread>.<seq>.cpuprofile, the main thread being thread 0. `run` re-executes itself
 * (bin/young-generation.js), and the process before the re-execution writes its own profile
 * under the same PID (or the same name, when both end within one second), so there are one or two.
 */
export async function mainThreadProfiles(dir) {
  return (await readdir(dir)).filter((file) => /\.0\.\d+\.cpuprofile$/.test(file)).sort();
}

/** Per bundle file URL: its source map, or null when it has none. */
const sourceMaps = new Map();

function sourceMapOf(url) {
  if (!sourceMaps.has(url)) {
    const mapPath = `${fileURLToPath(url)}.map`;
    const map = existsSync(mapPath) ? new SourceMap(JSON.parse(readFileSync(mapPath, 'utf8'))) : null;
    sourceMaps.set(url, map === null ? null : { map, base: pathToFileURL(mapPath) });
  }
  return sourceMaps.get(url);
}

/** A frame's URL and 0-based line in the code it was bundled from (itself when not bundled). */
export function originalFrame({ url, lineNumber, columnNumber }) {
  const mapped = url.startsWith('file:') && url.includes('/dist/bundle/') ? sourceMapOf(url) : null;
  // findOrigin takes and gives 1-based positions; a profile's are 0-based.
  const origin = mapped?.map.findOrigin(lineNumber + 1, columnNumber + 1);
  if (!origin?.fileName) return { url, lineNumber };
  return { url: new URL(origin.fileName, mapped.base).href, lineNumber: origin.lineNumber - 1 };
}

/** The owner of one script URL: "undici", "coachbench:metrics", "node:net", ... */
export function ownerOfUrl(url) {
  if (url.startsWith('node:')) {
    const path = url.slice('node:'.length).replace(/^internal\//, '');
    return `node:${path.split('/')[0]}`;
  }
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (inModules) return inModules[1];
  // src/ when a bundle's source map leads through dist/'s own maps back to the TypeScript.
  const ours = /\/(dist|src|bin|bench)\/(?:([^/]+)\/)?/.exec(url);
  if (ours) return ours[2] && (ours[1] === 'dist' || ours[1] === 'src') ? `coachbench:${ours[2]}` : `coachbench:${ours[1]}`;
  return url === '' ? 'native' : url;
}

/** Self time per profile node (µs), from its samples and their time deltas. */
function selfMicros(profile) {
  const self = new Map();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  });
  return self;
}

/**
 * Self time by owner and by function, in µs, samples where the thread was idle left out.
 * `window` ({ fromUs, toUs } relative to the profile's start) keeps only samples inside it.
 */
export function summariseProfile(profile, window = null) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const ownerOf = new Map();
  const frameOf = new Map(profile.nodes.map((n) => [n.id, originalFrame(n.callFrame)]));
  const visit = (node, inherited) => {
    const { functionName } = node.callFrame;
    const { url } = frameOf.get(node.id);
    const own = url !== '' ? ownerOfUrl(url) : functionName.startsWith('(') ? functionName : inherited;
    ownerOf.set(node.id, own);
    for (const child of node.children ?? []) visit(byId.get(child), own);
  };
  visit(profile.nodes[0], 'native');

  let self;
  if (window === null) self = selfMicros(profile);
  else {
    self = new Map();
    let at = 0;
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i + 1] ?? 0;
      at += profile.timeDeltas[i] ?? 0;
      if (at >= window.fromUs && at < window.toUs) self.set(id, (self.get(id) ?? 0) + delta);
    });
  }

  const owners = new Map();
  const functions = new Map();
  let busyUs = 0;
  for (const [id, us] of self) {
    const node = byId.get(id);
    const owner = ownerOf.get(id);
    if (owner === IDLE) continue;
    busyUs += us;
    owners.set(owner, (owners.get(owner) ?? 0) + us);
    const { functionName } = node.callFrame;
    const { url, lineNumber } = frameOf.get(id);
    const where = url === '' ? owner : `${url.replace(/^.*\/(node_modules|dist|src)\//, '$1/')}:${lineNumber + 1}`;
    const key = `${functionName || '(anonymous)'} ${where}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  return { busyUs, owners: sorted(owners), functions: sorted(functions), phases: window === null ? phasesOfProfile(profile) : [] };
}

/**
 * The phases of a run a sample belongs to, by a function on its stack (docs/benchmarks.md, "A
 * run's fixed cost"): the first rule that a frame of the stack matches, the report's and the
 * profile's before the CLI that called them. Bundled names may carry esbuild's numeric suffix.
 */
const PHASE_RULES = [
  ['report files (report.json, report.html, junit.xml, summary.md)', ({ name }) => /^(writeReportFiles|saveReport)\d*$/.test(name)],
  ['report built', ({ name }) => /^buildReport\d*$/.test(name)],
  ['probes', ({ name }) => /^runProbes\d*$/.test(name)],
  ['profile read and validated', ({ name }) => /^loadProfile\d*$/.test(name)],
  ['fixtures', ({ name }) => /^loadFixtures\d*$/.test(name)],
  ['preflight requests', ({ name }) => /^preflightTarget\d*$/.test(name)],
  ['scenario preparation', ({ name }) => /^prepareScenarios\d*$/.test(name)],
  ['CLI (yargs)', ({ url }) => /\/node_modules\/(yargs|yargs-parser|cliui|y18n|string-width|wrap-ansi)\//.test(url)],
  [
    'module loading (compile, evaluate)',
    ({ name, url, line }) => url.startsWith('node:internal/modules/') || name === '__require2' || (line === 0 && name === '' && /\/dist\/bundle\//.test(url)),
  ],
];
/** A sample's phase when no rule matches: start, or the load (and what runs beside it) once the load has begun. */
const LOAD_STARTED = /\/(open-loop|open-model|closed-model|recorder|interval-collector)\.ts$/;

/**
 * Busy µs by phase of the run, in the order the samples came: (program) and the garbage
 * collector take the phase of the sample before them.
 */
export function phasesOfProfile(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stackOf = new Map();
  const frames = (id) => {
    if (!stackOf.has(id)) {
      const stack = [];
      for (let at = id; at !== undefined; at = parent.get(at)) {
        const { callFrame } = byId.get(at);
        stack.push({ name: callFrame.functionName, url: originalFrame(callFrame).url, line: callFrame.lineNumber });
      }
      stackOf.set(id, stack);
    }
    return stackOf.get(id);
  };
  const phases = new Map();
  let loadBegun = false;
  let last = 'node start';
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i + 1] ?? 0;
    const stack = frames(id);
    const top = stack[0].name;
    if (top === IDLE) return;
    if (top !== '(program)' && top !== '(garbage collector)') {
      const rule = PHASE_RULES.find(([, matches]) => stack.some(matches));
      if (!rule && stack.some(({ url }) => LOAD_STARTED.test(url))) loadBegun = true;
      last = rule ? rule[0] : loadBegun ? 'the load, and what runs beside and after it' : 'start (other)';
    }
    phases.set(last, (phases.get(last) ?? 0) + us);
  });
  return sorted(phases);
}

const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]);

/** The sum of several summaries of one process (its profiles before and after a re-execution). */
export function addSummaries(summaries) {
  const add = (field) => {
    const total = new Map();
    for (const summary of summaries) for (const [key, us] of summary[field]) total.set(key, (total.get(key) ?? 0) + us);
    return sorted(total);
  };
  return { busyUs: summaries.reduce((sum, { busyUs }) => sum + busyUs, 0), owners: add('owners'), functions: add('functions'), phases: add('phases') };
}
