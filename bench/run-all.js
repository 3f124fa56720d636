// `npm run bench`: every benchmark in turn, never two at once (each measures CPU and latency that
// a neighbour would disturb), each writing bench/results/<its name>.json. About 45 minutes in all
// (peers.js, the peers side by side, takes about 34 of them: docs/benchmarks.md); `--full` and `--no-pin` are passed
// on to the benchmarks that accept them (--full: streams.js and workers.js run their full sizing;
// --no-pin: CPU placement is left to the scheduler). The hour-long soak is not included (run
// `node bench/soak.js` by hand: 70 minutes of the nightly-soak profile).
//
//   node bench/run-all.js --help   (its flags, from their declaration below)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseFlags } from './lib/flags.js';

/** Each benchmark with the arguments it always gets (streams.js runs twice: plain HTTP, then TLS). */
const BENCHES = [
  ['startup.js'],
  ['cpu-profile.js'],
  ['stream-close.js'],
  ['throughput-closed.js'],
  ['throughput-open.js'],
  ['throughput-latency.js'],
  ['open-error.js'],
  ['streams.js'],
  ['streams.js', '--tls'],
  ['workers.js'],
  ['peers.js'],
];
const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    full: { kind: 'switch', means: 'passed on to the benchmarks that accept it (streams.js, workers.js: their full sizing)' },
    'no-pin': { kind: 'switch', means: 'passed on to the benchmarks that accept it: CPU placement left to the scheduler' },
    list: { kind: 'switch', means: 'prints the command line of each benchmark, as it would run it, and exits' },
  },
});
const script = (bench) => new URL(`./${bench}`, import.meta.url).pathname;

/** The flags a benchmark accepts, from its own declaration (its --dry-run names them all); none when that fails. */
function acceptedBy(bench, args) {
  const dryRun = spawnSync(process.execPath, [script(bench), ...args, '--dry-run'], { encoding: 'utf8' });
  return dryRun.status === 0 ? Object.keys(JSON.parse(dryRun.stdout).values) : [];
}

const RUNS = BENCHES.map(([bench, ...args]) => {
  const accepted = flags.full || flags['no-pin'] ? acceptedBy(bench, args) : [];
  const passOn = ['full', 'no-pin'].filter((name) => flags[name] && accepted.includes(name)).map((name) => `--${name}`);
  return { bench, args: [...args, ...passOn] };
});
if (flags.list) {
  for (const { bench, args } of RUNS) console.log(['node', `bench/${bench}`, ...args].join(' '));
  process.exit(0);
}
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').trim();

const started = performance.now();
const failed = [];
for (const { bench, args } of RUNS) {
  const name = [bench, ...args].join(' ');
  console.log(`\n=== bench/${name} (loadavg ${loadavg()})`);
  const t0 = performance.now();
  const result = spawnSync(process.execPath, [script(bench), ...args], { stdio: 'inherit' });
  console.log(`=== bench/${name}: exit ${result.status}, ${((performance.now() - t0) / 1_000).toFixed(0)} s`);
  if (result.status !== 0) failed.push(name);
}
console.log(`\nall benchmarks: ${((performance.now() - started) / 60_000).toFixed(1)} min${failed.length > 0 ? `; failed: ${failed.join(', ')}` : ''}`);
process.exit(failed.length === 0 ? 0 : 1);
