// Soak memory benchmark (run by hand, not by `npm run bench`): `coachbench run` holds streams
// with messages, churn and background uploads/tags against a separately started reference target
// for --minutes, samples the driver's RSS every 10 s from /proc, and reports RSS at minute 5
// against the rest of the run. Goal: RSS stays within 10% of its minute-5 value. Writes
// bench/results/soak.json.
//
//   npm run build && node bench/soak.js --minutes 60 [--participants 2000]
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { flag } from './lib/flags.js';
import { BIN, benchDir, cpuSeconds, exited, rssBytes, startProcess, startServe, stopProcess } from './lib/processes.js';
import { beginMeasurement, writeResults } from './lib/results.js';
import { soakStats } from './lib/soak-stats.js';

const MINUTES = flag('minutes', 60);
const PARTICIPANTS = flag('participants', 2_000);
const begun = beginMeasurement();
const dir = await benchDir('soak');
const fixtures = join(dir, 'fixtures.json');
const profile = join(dir, 'soak.json');
await writeFile(
  profile,
  JSON.stringify({
    name: 'bench-soak',
    duration: `${MINUTES}m`,
    keepAliveTolerance: '10%',
    chatStreams: { participants: PARTICIPANTS, rampPerSec: 200, switchEvery: '2m', messageRatePerSec: 20, churnRatePerSec: 2 },
    photoUpload: { enabled: true, ratePerSec: 2, imageSizes: ['16KiB', '256KiB'] },
    tagLink: { enabled: true, ratePerSec: 2 },
  }),
);

const target = await startServe(['--participants', String(PARTICIPANTS), '--keepalive', '15s', '--fixtures-out', fixtures]);
const samples = [];
let report;
try {
  const out = join(dir, 'report');
  const driver = await startProcess(
    [BIN, 'run', '--profile', profile, '--target', target.url, '--fixtures', fixtures, '--expect-keepalive', '15s', '--out', out, '--quiet'],
    null,
  );
  const start = performance.now();
  const timer = setInterval(() => {
    try {
      samples.push({
        minute: +((performance.now() - start) / 60_000).toFixed(2),
        rssBytes: rssBytes(driver.child.pid),
        cpuSeconds: cpuSeconds(driver.child.pid),
        targetRssBytes: rssBytes(target.child.pid),
      });
    } catch {
      /* exited */
    }
  }, 10_000);
  await exited(driver.child);
  clearInterval(timer);
  report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
} finally {
  await stopProcess(target.child);
}

const result = {
  minutes: MINUTES,
  streams: PARTICIPANTS * 2,
  ...soakStats(samples),
  verdict: report?.verdict,
  failedChecks: report?.checks.filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.detail}`),
  timeseriesPoints: report?.timeseries.length,
  events: report && Object.values(report.scenarios.chatStreams.events).reduce((a, b) => a + b, 0),
  samples,
  method:
    'driver VmRSS from /proc/PID/status every 10 s; growth and drop are relative to the RSS at minute 5 over minutes 5..end; trend is the least-squares slope',
};
await writeResults('soak', begun, result);
const { samples: _s, ...summary } = result;
console.log(JSON.stringify(summary, null, 2));
