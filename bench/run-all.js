// `npm run bench`: every benchmark in turn, never two at once (each measures CPU and latency that
// a neighbour would disturb), each writing bench/results/<its name>.json. About 25 minutes in all
// (peers.js, the peers side by side, takes about 12 of them);
// `--full` (passed on to streams.js and workers.js) runs their full sizing instead, and `--no-pin`
// leaves CPU placement to the scheduler. The hour-long soak is not included (run
// `node bench/soak.js` by hand: 70 minutes of the nightly-soak profile).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

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
const passOn = process.argv.slice(2).filter((arg) => arg === '--full' || arg === '--no-pin');
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').trim();

const started = performance.now();
const failed = [];
for (const [bench, ...args] of BENCHES) {
  const name = [bench, ...args].join(' ');
  console.log(`\n=== bench/${name} (loadavg ${loadavg()})`);
  const t0 = performance.now();
  const result = spawnSync(process.execPath, [new URL(`./${bench}`, import.meta.url).pathname, ...args, ...passOn], { stdio: 'inherit' });
  console.log(`=== bench/${name}: exit ${result.status}, ${((performance.now() - t0) / 1_000).toFixed(0)} s`);
  if (result.status !== 0) failed.push(name);
}
console.log(`\nall benchmarks: ${((performance.now() - started) / 60_000).toFixed(1)} min${failed.length > 0 ? `; failed: ${failed.join(', ')}` : ''}`);
process.exit(failed.length === 0 ? 0 : 1);
