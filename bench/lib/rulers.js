// Load generators nobody here wrote, run beside `coachbench run` against the same target with the
// same path, token and image: autocannon's own CLI and, when installed, wrk. Their CPU is measured
// the same way as coachbench's (measured-command.js); their numbers come from their own output.
//
// Body: wrk sends the identical multipart bytes coachbench sends (its Lua script reads them from
// a file). autocannon's CLI cannot send a binary file as a raw body (`-i FILE` reads it as UTF-8,
// `-b` takes a literal string), so it sends the same image in the same `filename` part through
// its `-F` form option, with its own boundary (a few bytes longer). Secrets reach wrk through
// the environment; autocannon only takes headers on its command line (`-H`), so the loopback
// target's token is visible in `ps` while it runs.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lastJsonLine, outFileIn, runMeasured } from './measured-command.js';
import { rounder } from './round.js';

export const AUTOCANNON_CLI = new URL('../../node_modules/autocannon/autocannon.js', import.meta.url).pathname;
const ACCEPT = 'application/json, application/problem+json';

const round = rounder(1);
const perRequest = (cpuSeconds, requests) => (requests > 0 ? round((cpuSeconds * 1e6) / requests) : null);

/** wrk's version line, or null with the reason it cannot be used. */
export function wrkStatus() {
  const found = spawnSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' });
  if (found.status !== 0) return { version: null, reason: 'wrk is not installed (apt-get install wrk); its rows are skipped' };
  // `wrk -v` prints its version and exits 1.
  const version = /^wrk \S+/.exec(spawnSync('wrk', ['-v'], { encoding: 'utf8' }).stdout)?.[0] ?? 'wrk';
  return { version, reason: null };
}

/** autocannon's CLI: `connections` connections for `seconds`, JSON result. */
export async function autocannonCli({ dir, url, fixtures, body, connections, seconds, cpu, wrapper = [], env = {} }) {
  const participant = fixtures.participants[0];
  const form = { filename: { type: 'file', path: body.imagePath, options: { filename: body.image.fileName, contentType: 'image/jpeg' } } };
  const args = [
    AUTOCANNON_CLI,
    ...['-c', String(connections), '-d', String(seconds), '-m', 'PATCH', '-j', '-n'],
    ...['-H', `Accept=${ACCEPT}`, '-H', `Authorization=Bearer ${participant.token}`, '-H', `X-API-Key=${fixtures.apiKey}`],
    ...['-F', JSON.stringify(form)],
    `${url}/api/v1/participants/${participant.userId}/profile_photo`,
  ];
  const [command, ...commandArgs] = [...wrapper, process.execPath, ...args];
  const run = await runMeasured(command, commandArgs, { cpu, env, outFile: outFileIn(dir, 'autocannon') });
  const json = lastJsonLine(run.output);
  if (run.code !== 0 || !json) throw new Error(`autocannon exited ${run.code}:\n${run.output}`);
  const result = JSON.parse(json);
  return {
    perSec: round(result.requests.total / result.duration),
    requests: result.requests.total,
    errors: result.errors + result.non2xx,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuUsPerRequest: perRequest(run.cpuSeconds, result.requests.total),
    processCpuSeconds: round(run.cpuSeconds, 2),
    processWallSeconds: round(run.wallSeconds, 2),
  };
}

/**
 * A Node.js client of bench/ (node-floor-client.js, checked-floor-client.js, undici-pool-client.js):
 * the identical body and headers, `connections` connections for `seconds`. Its CPU per request is
 * measured like every other tool's; its errors are its non-2xx answers, or the errors it counts
 * itself where it judges answers; latency percentiles only where it keeps them.
 */
export async function nodeClient(script, { dir, url, fixtures, body, connections, seconds, cpu }) {
  const participant = fixtures.participants[0];
  const headers = {
    authorization: `Bearer ${participant.token}`,
    'x-api-key': fixtures.apiKey,
    accept: ACCEPT,
    'content-type': body.body.contentType,
  };
  const path = `/api/v1/participants/${participant.userId}/profile_photo`;
  const client = new URL(`../${script}`, import.meta.url).pathname;
  const run = await runMeasured(process.execPath, [client, url, path, String(connections), String(seconds), body.bodyPath], {
    env: { CB_HEADERS: JSON.stringify(headers) },
    cpu,
    outFile: outFileIn(dir, script.replace(/\.js$/, '')),
  });
  const json = run.output.trim().split('\n').at(-1);
  if (run.code !== 0 || !json?.startsWith('{')) throw new Error(`${script} exited ${run.code}:\n${run.output}`);
  const { requests, non2xx, errors = non2xx, p50Ms = null, p99Ms = null } = JSON.parse(json);
  return {
    perSec: round(requests / seconds),
    requests,
    errors,
    p50Ms,
    p99Ms,
    cpuUsPerRequest: perRequest(run.cpuSeconds, requests),
    processCpuSeconds: round(run.cpuSeconds, 2),
    processWallSeconds: round(run.wallSeconds, 2),
  };
}

const WRK_SCRIPT = [
  'wrk.method = "PATCH"',
  'local f = assert(io.open(os.getenv("CB_BODY"), "rb"))',
  'wrk.body = f:read("*a")',
  'f:close()',
  'wrk.headers["Content-Type"] = os.getenv("CB_CT")',
  'wrk.headers["Accept"] = os.getenv("CB_ACCEPT")',
  'wrk.headers["Authorization"] = "Bearer " .. os.getenv("CB_TOKEN")',
  'wrk.headers["X-API-Key"] = os.getenv("CB_KEY")',
  '',
].join('\n');

/** wrk -t1 with `connections` connections for `seconds`, the identical body from a file. */
export async function wrk({ dir, url, fixtures, body, connections, seconds, cpu }) {
  const participant = fixtures.participants[0];
  const script = join(dir, 'photo.lua');
  await writeFile(script, WRK_SCRIPT);
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '--latency', '-s', script];
  const env = { CB_BODY: body.bodyPath, CB_CT: body.body.contentType, CB_ACCEPT: ACCEPT, CB_TOKEN: participant.token, CB_KEY: fixtures.apiKey };
  const run = await runMeasured('wrk', [...args, `${url}/api/v1/participants/${participant.userId}/profile_photo`], {
    env,
    cpu,
    outFile: outFileIn(dir, 'wrk'),
  });
  if (run.code !== 0) throw new Error(`wrk exited ${run.code}:\n${run.output}`);
  const out = run.output;
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const toMs = (m) => (m ? round(Number(m[1]) * { us: 0.001, ms: 1, s: 1_000 }[m[2]], 3) : null);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    perSec: round(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1])),
    requests,
    errors: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) + (socketErrors ? socketErrors.slice(1).reduce((a, n) => a + Number(n), 0) : 0),
    p50Ms: toMs(/50%\s+([\d.]+)(us|ms|s)/.exec(out)),
    p99Ms: toMs(/99%\s+([\d.]+)(us|ms|s)/.exec(out)),
    cpuUsPerRequest: perRequest(run.cpuSeconds, requests),
    processCpuSeconds: round(run.cpuSeconds, 2),
    processWallSeconds: round(run.wallSeconds, 2),
  };
}
