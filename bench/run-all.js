// `npm run bench`: every benchmark in turn, each writing its JSON under bench/results/.
// The hour-long soak is not included (run `node bench/soak.js --minutes 60` by hand).
import { spawnSync } from 'node:child_process';

const benches = ['streams.js', 'workers.js', 'throughput-closed.js', 'throughput-open.js', 'throughput-latency.js'];
let failed = 0;
for (const bench of benches) {
  console.log(`\n=== bench/${bench}`);
  const result = spawnSync(process.execPath, [new URL(`./${bench}`, import.meta.url).pathname], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
