// Benchmark: requests over HTTP/2 against HTTP/1.1, through `coachbench run` as users run it,
// against one target that speaks both (`serve --http2 --tls self-signed`, ALPN picks the
// protocol the client asks for), pinned to its own core. The same open-model load, photo
// uploads (16 KiB) and then tag create-and-link, at a rate the target keeps, once per
// protocol: achieved throughput, latency, and the generator's CPU per request from /proc.
// Writes bench/results/http2-requests.json.
// Every process here is started by this script, talks only to 127.0.0.1, and is stopped by PID.
//
//   node bench/http2-requests.js --help   (its flags, from their declaration below)
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { photoFigures, photoProfile, runCoachbench, scenarioFigures } from './lib/coachbench-run.js';
import { parseFlags } from './lib/flags.js';
import { GENERATOR_CPU, pinToTargetCpu } from './lib/photo-target.js';
import { benchDir, startServe, stopProcess } from './lib/processes.js';
import { beginMeasurement, writeResults } from './lib/results.js';
import { rounder } from './lib/round.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    rate: { kind: 'number', default: 1_000, means: 'requests per second, the same for both protocols' },
    seconds: { kind: 'number', default: 10, means: 'duration of each run' },
    size: { kind: 'number', default: 16_384, means: 'bytes of the uploaded JPEG' },
  },
});
const RATE = flags.rate;
const SECONDS = flags.seconds;
const SIZE = flags.size;
const begun = beginMeasurement();
const dir = await benchDir('http2-requests');
const round = rounder(1);

const ca = join(dir, 'ca.pem');
const fixturesPath = join(dir, 'fixtures.json');
const target = await startServe(['--participants', '20', '--tls', 'self-signed', '--tls-cert-out', ca, '--http2', '--fixtures-out', fixturesPath]);
pinToTargetCpu(target.child.pid);

const tagProfile = (name) => ({
  name,
  duration: `${SECONDS}s`,
  chatStreams: { enabled: false },
  photoUpload: { enabled: false },
  tagLink: { enabled: true, model: 'open', ratePerSec: RATE, maxInFlight: 512, tagsPerRequest: 4, existingShare: 0.5, timeout: '10s' },
});

const rows = {};
try {
  // Tags need the coach token: the fixtures `serve` writes carry it.
  if (!JSON.parse(await readFile(fixturesPath, 'utf8')).coachToken) throw new Error('the fixtures have no coach token');
  for (const http of ['1.1', '2']) {
    const args = ['--ca', ca, '--http', http];
    const photo = await runCoachbench({
      dir,
      profile: photoProfile(`bench-h${http}-photo`, SECONDS, SIZE, { model: 'open', ratePerSec: RATE, maxInFlight: 512 }),
      targetUrl: target.url,
      fixturesPath,
      cpu: GENERATOR_CPU,
      args,
    });
    const tags = await runCoachbench({ dir, profile: tagProfile(`bench-h${http}-tags`), targetUrl: target.url, fixturesPath, cpu: GENERATOR_CPU, args });
    rows[`http${http}`] = {
      negotiated: { photo: photo.report.transport.protocols.requests, tags: tags.report.transport.protocols.requests },
      photoUpload: photoFigures(photo),
      tagLink: scenarioFigures(tags, 'tagLink'),
    };
    console.log(`--http ${http}: photo ${JSON.stringify(rows[`http${http}`].photoUpload)} tags ${JSON.stringify(rows[`http${http}`].tagLink)}`);
  }
} finally {
  await stopProcess(target.child);
}

const ratio = (scenario, key) => round(rows.http2[scenario][key] / rows['http1.1'][scenario][key], 3);
await writeResults('http2-requests', begun, {
  method:
    `One target (serve --http2 --tls self-signed, pinned to cpu 0) speaking h2 and HTTP/1.1 through ALPN; coachbench run (pinned to cpu 1) ` +
    `with the open model at ${RATE} requests/s for ${SECONDS} s, photo uploads of ${SIZE} B and then tag create-and-link (4 names, half existing), ` +
    `once with --http 1.1 and once with --http 2 (--ca trusting the target). CPU per request is the whole coachbench process from /proc ` +
    `(start, probes and report files included) over the requests it sent.`,
  rate: RATE,
  seconds: SECONDS,
  sizeBytes: SIZE,
  ...rows,
  h2OverH1: {
    photoCpuPerRequest: ratio('photoUpload', 'cpuUsPerRequest'),
    tagsCpuPerRequest: ratio('tagLink', 'cpuUsPerRequest'),
    photoThroughput: ratio('photoUpload', 'perSec'),
    tagsThroughput: ratio('tagLink', 'perSec'),
  },
});
