/**
 * bench/checked-floor-client.js, the closed workload's floor of autocannon's engine with
 * coachbench's checks: it judges every answer (a floor that skipped them would be cheaper than
 * what it stands for), run as bench/peers.js runs it against a real `coachbench serve`, and its
 * figure stands beside the closed-model goal in peers.json.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeGoals } from '../../bench/lib/peers-table.js';
import { buildImageCorpus } from '../../src/drivers/throughput/images/image-corpus.js';
import { defaultPhotoBody } from '../../src/drivers/throughput/multipart-body.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';

const CLIENT = new URL('../../bench/checked-floor-client.js', import.meta.url).pathname;

interface FloorOutput {
  requests: number;
  non2xx: number;
  failedChecks: number;
  errors: number;
}

let dir = '';
let healthy: ServeProcess;
let failing: ServeProcess;
let bodyFile = '';
let contentType = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'checked-floor-'));
  const body = defaultPhotoBody(buildImageCorpus(['jpeg'], [2_048])[0]!);
  bodyFile = join(dir, 'body.bin');
  writeFileSync(bodyFile, body.body);
  contentType = body.contentType;
  [healthy, failing] = await Promise.all([
    startServe(join(dir, 'healthy.json'), ['--participants', '2']),
    startServe(join(dir, 'failing.json'), ['--participants', '2', '--fault', 'error-rate=100']),
  ]);
}, 30_000);

afterAll(async () => {
  await Promise.all([healthy?.stop(), failing?.stop()]);
});

/** One second of the client against `target` on 2 connections, as bench/lib/rulers.js nodeClient runs it. */
async function runFloor(target: ServeProcess): Promise<FloorOutput> {
  const fixtures = JSON.parse(readFileSync(target.fixtures, 'utf8')) as { apiKey: string; participants: { userId: string; token: string }[] };
  const participant = fixtures.participants[0]!;
  const headers = { authorization: `Bearer ${participant.token}`, 'x-api-key': fixtures.apiKey, accept: 'application/json', 'content-type': contentType };
  const path = `/api/v1/participants/${participant.userId}/profile_photo`;
  const child = spawn(process.execPath, [CLIENT, target.url, path, '2', '1', bodyFile], {
    env: { ...process.env, CB_HEADERS: JSON.stringify(headers) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const stop = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code] = await once(child, 'exit');
  clearTimeout(stop);
  expect(code, output).toBe(0);
  return JSON.parse(output.trim().split('\n').at(-1)!) as FloorOutput;
}

describe('the checked floor', () => {
  it('passes every answer of a healthy target', async () => {
    const out = await runFloor(healthy);
    expect(out.requests).toBeGreaterThan(0);
    expect(out).toMatchObject({ non2xx: 0, failedChecks: 0, errors: 0 });
  }, 30_000);

  it('fails every answer of a target that answers 500', async () => {
    const out = await runFloor(failing);
    expect(out.requests).toBeGreaterThan(0);
    expect(out.failedChecks).toBe(out.requests);
    // Each failed answer is one error, its status and its checks counted once.
    expect(out).toMatchObject({ non2xx: out.requests, errors: out.requests });
  }, 30_000);

  it('stands beside the closed-model goal, which is judged by the ratios of the repetitions', () => {
    const cpu = (us: number) => ({ cpuUsPerRequest: us });
    const rows = [
      { tool: 'coachbench', repetition: 1, cpuUsPerRequest: 66 },
      { tool: 'autocannon', repetition: 1, cpuUsPerRequest: 60 },
      { tool: 'checkedFloor', repetition: 1, cpuUsPerRequest: 63 },
      { tool: 'autocannon', repetition: 2, cpuUsPerRequest: 50 },
      { tool: 'coachbench', repetition: 2, failed: 'exited 4' },
      { tool: 'checkedFloor', repetition: 2, cpuUsPerRequest: 55 },
      { tool: 'coachbench', repetition: 3, cpuUsPerRequest: 60 },
      { tool: 'autocannon', repetition: 3, cpuUsPerRequest: 50 },
      { tool: 'checkedFloor', repetition: 3, cpuUsPerRequest: 60 },
    ];
    // The medians of the tools apart (60 against 50) would say 1.2; the repetitions say 1.1 and 1.2.
    const medians = { coachbench: cpu(60), autocannon: cpu(50), floor: cpu(35), checkedFloor: cpu(60) };
    const [closed] = judgeGoals({ closed: { rows, medians } });
    expect(closed).toMatchObject({ value: 1.15, verdict: 'not met' });
    expect(closed?.beside).toBe(
      "each repetition: 1.1, 1.2; by medians: 1.2; floor (raw sockets, no HTTP parser): 0.7 × autocannon's; checked floor (autocannon's engine with coachbench's checks): 1.1 × autocannon's, coachbench 1.02 × it",
    );
  });
});
