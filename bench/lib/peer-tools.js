// The load generators users would pick instead of coachbench, for bench/peers.js: where each is
// (installed with apt-get, or npm into a temporary prefix, when missing and possible) and how
// each runs the photo upload at a closed or an open load. Every runner goes through
// runMeasured (utime+stime of the tool's process tree from /proc, measured-command.js) and
// returns the same row: requests, errors, perSec, p50Ms, p99Ms, cpuUsPerRequest. A tool that
// cannot be found or installed is reported with the reason, never faked.
//
// Bodies: wrk, h2load and hey send the identical multipart bytes coachbench sends (from a file);
// Locust reads the same file; autocannon's CLI and Artillery build their own multipart form
// around the same JPEG in the same `filename` part (neither sends a binary file as a raw body).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastJsonLine, outFileIn, runMeasured } from './measured-command.js';
import { rounder } from './round.js';

const ACCEPT = 'application/json, application/problem+json';
/** Artillery is installed here (npm, scripts ignored), never into the project's package.json. */
const ARTILLERY_VERSION = '2.0.34';
const ARTILLERY_PREFIX = join(tmpdir(), 'coachbench-peers-tools', 'artillery');
const ARTILLERY_BIN = join(ARTILLERY_PREFIX, 'node_modules', 'artillery', 'bin', 'run');

const round = rounder(1);
const perRequest = (cpuSeconds, requests) => (requests > 0 ? round((cpuSeconds * 1e6) / requests) : null);
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).status === 0;

let aptUpdated = false;
/** apt-get install `pkg` as root (apt-get update once per benchmark); true when `command` is then there. */
function aptInstall(command, pkg) {
  if (has(command)) return true;
  if (process.getuid?.() !== 0) return false;
  if (!aptUpdated) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
    aptUpdated = true;
  }
  spawnSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return has(command);
}

const firstLine = (command, args) => {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n')[0] || command;
};

/**
 * Each peer's version, or null and the reason it is missing. Only the peers `wanted` names are
 * looked for (and installed when missing): a measurement of some tools installs nothing else.
 */
export function findPeers(wanted = () => true, whyNot = 'not run in this measurement (--tools)') {
  const unwanted = (name) => (wanted(name) ? null : { name, version: null, reason: `not looked for: ${whyNot}` });
  const debian = (name, command, pkg, versionArgs) =>
    unwanted(name) ??
    (aptInstall(command, pkg)
      ? { name, version: firstLine(command, versionArgs), reason: null }
      : { name, version: null, reason: `${command} is not installed and could not be (apt-get install ${pkg} as root)` });
  const peers = {
    wrk: debian('wrk', 'wrk', 'wrk', ['-v']),
    h2load: debian('h2load', 'h2load', 'nghttp2-client', ['--version']),
    hey:
      unwanted('hey') ??
      (aptInstall('hey', 'hey')
        ? { name: 'hey', version: `hey (Debian ${debianVersion('hey')})`, reason: null }
        : { name: 'hey', version: null, reason: 'hey is not installed and could not be (apt-get install hey as root)' }),
    locust: debian('locust', 'locust', 'python3-locust', ['-V']),
    artillery: unwanted('artillery') ?? findArtillery(),
  };
  if (peers.locust.version) peers.locust.version = `locust ${debianVersion('python3-locust')} (Debian python3-locust)`;
  return peers;
}

function debianVersion(pkg) {
  return spawnSync('dpkg-query', ['-W', '-f', '\u0024{Version}', pkg], { encoding: 'utf8' }).stdout.trim() || 'unknown';
}

function findArtillery() {
  if (!existsSync(ARTILLERY_BIN)) {
    spawnSync('npm', ['install', '--prefix', ARTILLERY_PREFIX, '--ignore-scripts', '--no-audit', '--no-fund', '--no-save', `artillery@${ARTILLERY_VERSION}`], {
      stdio: 'ignore',
      timeout: 600_000,
    });
  }
  if (!existsSync(ARTILLERY_BIN))
    return { name: 'artillery', version: null, reason: `npm install artillery@${ARTILLERY_VERSION} --ignore-scripts into ${ARTILLERY_PREFIX} failed` };
  return { name: 'artillery', version: `artillery ${ARTILLERY_VERSION} (npm, scripts ignored, ${ARTILLERY_PREFIX})`, reason: null };
}

/** The request every tool sends: path, headers (the multipart Content-Type included) and body file. */
export function uploadRequest(url, fixtures, body) {
  const participant = fixtures.participants[0];
  return {
    url: `${url}/api/v1/participants/${participant.userId}/profile_photo`,
    path: `/api/v1/participants/${participant.userId}/profile_photo`,
    headers: { accept: ACCEPT, authorization: `Bearer ${participant.token}`, 'x-api-key': fixtures.apiKey, 'content-type': body.body.contentType },
    bodyPath: body.bodyPath,
    body,
  };
}

/** Percentiles (ms) of latencies in ms. */
export function percentiles(valuesMs) {
  if (valuesMs.length === 0) return { p50Ms: null, p99Ms: null };
  const sorted = Float64Array.from(valuesMs).sort();
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return { p50Ms: round(at(50), 3), p99Ms: round(at(99), 3) };
}

function row(run, requests, errors, latency, seconds) {
  return {
    requests,
    errors,
    perSec: round(requests / seconds),
    ...latency,
    cpuUsPerRequest: perRequest(run.cpuSeconds, requests),
    processCpuSeconds: round(run.cpuSeconds, 2),
    processWallSeconds: round(run.wallSeconds, 2),
  };
}

const headerArgs = (flagName, headers, join = ': ') => Object.entries(headers).flatMap(([name, value]) => [flagName, `${name}${join}${value}`]);

/**
 * h2load over HTTP/1.1 (`--h1`), one thread. Closed: `connections` clients back to back. Open:
 * `--rps` per client, so `clients` × rps = the rate (each client paces its own requests; latency
 * is from each request's actual send, h2load's log). Latencies from its --log-file.
 */
export async function h2load({ dir, request, connections, seconds, cpu, ratePerSec = null }) {
  const log = join(dir, `h2load-${Date.now()}.log`);
  const clients = connections;
  const args = ['--h1', '-t1', `-c${clients}`, '-m1', '-D', String(seconds), '-d', request.bodyPath, '--log-file', log, '-H', ':method: PATCH'];
  if (ratePerSec !== null) args.push(`--rps=${ratePerSec / clients}`);
  args.push(...headerArgs('-H', request.headers), request.url);
  const run = await runMeasured('h2load', args, { cpu, outFile: outFileIn(dir, 'h2load') });
  if (run.code !== 0) throw new Error(`h2load exited ${run.code}:\n${run.output}`);
  const lines = (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  // Each line: start time (µs since the epoch), status, elapsed µs.
  const entries = lines.map((line) => line.split('\t').map(Number));
  const ok = entries.filter(([, status]) => status >= 200 && status < 300);
  const failed = Number(/(\d+) failed/.exec(run.output)?.[1] ?? 0) + Number(/(\d+) errored/.exec(run.output)?.[1] ?? 0);
  return row(run, entries.length, entries.length - ok.length + failed, percentiles(entries.map(([, , us]) => us / 1_000)), seconds);
}

/** hey: `connections` workers for `seconds`; open: -q per worker so workers × q = the rate. Latencies from its CSV. */
export async function hey({ dir, request, connections, seconds, cpu, ratePerSec = null }) {
  const args = ['-c', String(connections), '-z', `${seconds}s`, '-m', 'PATCH', '-D', request.bodyPath, '-o', 'csv', '-t', '10'];
  if (ratePerSec !== null) args.push('-q', String(ratePerSec / connections));
  const { 'content-type': contentType, ...rest } = request.headers;
  args.push('-T', contentType, ...headerArgs('-H', rest), request.url);
  const run = await runMeasured('hey', args, { cpu, outFile: outFileIn(dir, 'hey') });
  if (run.code !== 0) throw new Error(`hey exited ${run.code}:\n${run.output}`);
  // response-time (s),DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset
  const records = run.output
    .split('\n')
    .filter((line) => /^\d/.test(line))
    .map((line) => line.split(','));
  const errors = records.filter((fields) => !/^2\d\d$/.test(fields[6])).length;
  return row(run, records.length, errors, percentiles(records.map((fields) => Number(fields[0]) * 1_000)), seconds);
}

/**
 * autocannon's CLI (node_modules/autocannon), multipart through its -F form; open: -R the rate,
 * and with `ignoreCoordinatedOmission` also -C (no back-filled latencies).
 */
export async function autocannon({ dir, request, connections, seconds, cpu, ratePerSec = null, ignoreCoordinatedOmission = false }) {
  const cli = new URL('../../node_modules/autocannon/autocannon.js', import.meta.url).pathname;
  const { body } = request;
  const form = { filename: { type: 'file', path: body.imagePath, options: { filename: body.image.fileName, contentType: 'image/jpeg' } } };
  const { 'content-type': _multipart, ...rest } = request.headers;
  const args = [cli, '-c', String(connections), '-d', String(seconds), '-m', 'PATCH', '-j', '-n', ...headerArgs('-H', rest, '='), '-F', JSON.stringify(form)];
  if (ratePerSec !== null) args.push('-R', String(ratePerSec));
  if (ignoreCoordinatedOmission) args.push('-C');
  args.push(request.url);
  const run = await runMeasured(process.execPath, args, { cpu, outFile: outFileIn(dir, 'autocannon') });
  const json = lastJsonLine(run.output);
  if (run.code !== 0 || !json) throw new Error(`autocannon exited ${run.code}:\n${run.output}`);
  const result = JSON.parse(json);
  // With -R each connection sends its share of a second's requests as they fall due within that
  // second, and each latency is back-filled down to 1/rate (recordValueWithExpectedInterval):
  // its percentiles then include values it never measured, which the row keeps as reported.
  return row(run, result.requests.total, result.errors + result.non2xx, { p50Ms: result.latency.p50, p99Ms: result.latency.p99 }, result.duration || seconds);
}

const LOCUSTFILE = `
import os
from locust import FastHttpUser, task, constant, constant_throughput

BODY = open(os.environ["CB_BODY"], "rb").read()
HEADERS = {
    "Accept": os.environ["CB_ACCEPT"],
    "Authorization": os.environ["CB_AUTHORIZATION"],
    "X-API-Key": os.environ["CB_KEY"],
    "Content-Type": os.environ["CB_CT"],
}
PATH = os.environ["CB_PATH"]
RATE = float(os.environ.get("CB_USER_RATE", "0"))


class Upload(FastHttpUser):
    wait_time = constant_throughput(RATE) if RATE > 0 else constant(0)

    @task
    def upload(self):
        self.client.request("PATCH", PATH, data=BODY, headers=HEADERS, name="upload")
`;

/**
 * Locust (FastHttpUser), headless, one process: `users` users spawned at once for `seconds`.
 * Closed: no wait. Open: constant_throughput per user so users × rate = the rate (each user
 * waits out the rest of its period: paced, not an open model). Percentiles from its CSV (ms,
 * rounded by Locust to 2 significant digits above 100 ms).
 */
export async function locust({ dir, request, connections, seconds, cpu, ratePerSec = null, users = connections }) {
  const file = join(dir, 'locustfile.py');
  await writeFile(file, LOCUSTFILE);
  const csv = join(dir, `locust-${Date.now()}`);
  const args = [
    '-f',
    file,
    '--headless',
    '-u',
    String(users),
    '-r',
    String(users),
    '-t',
    `${seconds}s`,
    '--host',
    new URL(request.url).origin,
    '--csv',
    csv,
    '--only-summary',
    '--loglevel',
    'WARNING',
    '--stop-timeout',
    '5',
  ];
  const env = {
    CB_BODY: request.bodyPath,
    CB_ACCEPT: request.headers.accept,
    CB_AUTHORIZATION: request.headers.authorization,
    CB_KEY: request.headers['x-api-key'],
    CB_CT: request.headers['content-type'],
    CB_PATH: request.path,
    CB_USER_RATE: ratePerSec === null ? '0' : String(ratePerSec / users),
  };
  const run = await runMeasured('locust', args, { cpu, env, outFile: outFileIn(dir, 'locust') });
  const stats = await readFile(`${csv}_stats.csv`, 'utf8').catch(() => null);
  // Exit 1 when some request failed; the CSV still holds the counts.
  if (stats === null) throw new Error(`locust exited ${run.code} without stats:\n${run.output}`);
  const [header, ...lines] = stats.trim().split('\n');
  const columns = header.split(',').map((name) => name.replace(/"/g, ''));
  const total = lines.map((line) => line.split(',').map((value) => value.replace(/"/g, ''))).find((fields) => fields[1] === 'Aggregated');
  const field = (name) => Number(total[columns.indexOf(name)]);
  // Its rate over its own time under load (users spawn over its first moments), as it reports it.
  return {
    ...row(run, field('Request Count'), field('Failure Count'), { p50Ms: field('50%'), p99Ms: field('99%') }, seconds),
    perSec: round(field('Requests/s')),
  };
}

/**
 * Artillery (npm, scripts ignored, temporary prefix). Open: `arrivalRate` virtual users a second,
 * one upload each. Closed: `connections` users arrive in the first second and loop until
 * `seconds` have passed. Multipart through its formData with the JPEG from a file.
 */
export async function artillery({ dir, request, connections, seconds, cpu, ratePerSec = null }) {
  const processor = join(dir, 'artillery-processor.cjs');
  // The clock starts with the first user's first check (Artillery takes seconds to start).
  await writeFile(
    processor,
    'let end;\nmodule.exports = { running: (context, next) => { end ??= Date.now() + Number(process.env.CB_LOAD_MS); return next(Date.now() < end); } };\n',
  );
  const { 'content-type': _multipart, ...headers } = request.headers;
  const upload = { patch: { url: request.path, headers, formData: { filename: { fromFile: request.body.imagePath, contentType: 'image/jpeg' } } } };
  const config = {
    config: {
      target: new URL(request.url).origin,
      processor,
      http: { timeout: 10 },
      phases: ratePerSec === null ? [{ duration: 1, arrivalCount: connections }] : [{ duration: seconds, arrivalRate: ratePerSec }],
    },
    scenarios: [{ flow: ratePerSec === null ? [{ loop: [upload], whileTrue: 'running' }] : [upload] }],
  };
  const configPath = join(dir, `artillery-${Date.now()}.json`);
  const outPath = `${configPath}.out.json`;
  await writeFile(configPath, JSON.stringify(config));
  const run = await runMeasured(process.execPath, [ARTILLERY_BIN, 'run', '--quiet', '-o', outPath, configPath], {
    cpu,
    env: { ARTILLERY_DISABLE_TELEMETRY: 'true', CB_LOAD_MS: String(seconds * 1_000) },
    outFile: outFileIn(dir, 'artillery'),
  });
  const report = JSON.parse(await readFile(outPath, 'utf8').catch(() => 'null'));
  if (report === null) throw new Error(`artillery exited ${run.code} without a report:\n${run.output}`);
  const counters = report.aggregate.counters ?? {};
  const timing = report.aggregate.summaries?.['http.response_time'] ?? {};
  const ok = Object.entries(counters)
    .filter(([name]) => /^http\.codes\.2\d\d$/.test(name))
    .reduce((sum, [, n]) => sum + n, 0);
  const requests = counters['http.responses'] ?? 0;
  const errors =
    requests -
    ok +
    Object.entries(counters)
      .filter(([name]) => name.startsWith('errors.'))
      .reduce((sum, [, n]) => sum + n, 0);
  // Its closed users loop for `seconds` from the first one's start: the rate is over the span its counters cover.
  const spanSeconds =
    report.aggregate.lastCounterAt && report.aggregate.firstCounterAt ? (report.aggregate.lastCounterAt - report.aggregate.firstCounterAt) / 1_000 : seconds;
  return {
    ...row(run, requests, errors, { p50Ms: timing.p50 ?? null, p99Ms: timing.p99 ?? null }, Math.max(spanSeconds, 1e-3)),
    loadSeconds: round(spanSeconds, 2),
  };
}

/**
 * The floor of the open model: bench/open-floor-client.js (undici request() on a Pool, a timer
 * per due slot, latency from the intended start, nothing checked) at `ratePerSec`, with the
 * young generation `coachbench run` gives itself (`nodeArgs`). Latencies from its samples.
 */
export async function floorClient({ dir, request, seconds, cpu, ratePerSec, nodeArgs = [] }) {
  const client = new URL('../open-floor-client.js', import.meta.url).pathname;
  const samplesPath = join(dir, `floor-samples-${Date.now()}.json`);
  const args = [...nodeArgs, client, new URL(request.url).origin, request.path, String(ratePerSec), String(seconds), request.bodyPath, samplesPath];
  const run = await runMeasured(process.execPath, args, { cpu, env: { CB_HEADERS: JSON.stringify(request.headers) }, outFile: outFileIn(dir, 'floor') });
  if (run.code !== 0) throw new Error(`open-floor-client.js exited ${run.code}:\n${run.output}`);
  const summary = JSON.parse(lastJsonLine(run.output));
  const samples = JSON.parse(await readFile(samplesPath, 'utf8'));
  return row(run, summary.requests, summary.errors, percentiles(samples.map(([, ms]) => ms)), seconds);
}
