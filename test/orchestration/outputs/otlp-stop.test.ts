/**
 * `run --otlp URL` against a collector that accepts connections and never answers, stopped by
 * SIGTERM (bin/coachbench.js, signalled by PID): the last push must not hold the exit past the
 * signal's guarantee (docs/design.md §2.8). Before, the close waited for the exporter's own
 * timeouts, twice. Needs dist/ (npm run build).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { once, runBin, runIsUnderWay } from '../../support/bin-helpers.js';
import { profileFile, quickProfile } from '../../support/profiles.js';
import { readRunReport } from '../../support/run-report.js';

let work: string;
let silent: Server;
let silentUrl: string;
const sockets = new Set<Socket>();

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'coachbench-otlp-stop-'));
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
  await rm(work, { recursive: true, force: true });
});

describe('run --otlp with a collector that never answers', () => {
  it('SIGTERM: exits 143 within 2 s of the signal, the report written and marked interrupted', async () => {
    const profile = await profileFile(work, 'long', quickProfile({ duration: '60s', generator: { maxEventLoopDelayP99: '2s' } }));
    const out = join(work, 'report');
    let signalledAt = 0;
    const started = performance.now();
    const result = await runBin(['run', '--profile', profile, '--otlp', silentUrl, '--progress-every', '1s', '--out', out], {
      onStderr: once(runIsUnderWay, (pid) => {
        signalledAt = performance.now();
        process.kill(pid, 'SIGTERM');
      }),
      deadlineMs: 40_000,
    });
    expect(result.killed, result.stderr).toBe(false);
    expect(result.code, result.stderr).toBe(143);
    expect(started + result.elapsedMs - signalledAt, 'ms from the signal to the exit').toBeLessThan(2_300);
    const report = await readRunReport(out);
    expect(report.interrupted).toBe(true);
  }, 60_000);
});
