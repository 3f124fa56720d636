/**
 * Lifecycle of a multi-worker target: close() and SIGINT/SIGTERM to `serve --workers` stop
 * every worker (no process left), a worker that dies stops the target and is reported (exit 1
 * for serve), and a start that cannot listen is a StartError that leaves nothing behind.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveServeOptions } from '../../src/reference-service/serve-main.js';
import { startTarget } from '../../src/reference-service/start-target.js';
import { resolveServiceWorkers } from '../../src/reference-service/target-config.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { ConfigError, StartError } from '../../src/util/errors.js';
import { BIN } from '../support/bin-helpers.js';
import { eventually, openStream, participant } from '../support/target-helpers.js';
import { processGone } from '../support/target-workers.js';

let target: RunningTarget | null = null;

afterEach(async () => {
  vi.restoreAllMocks();
  await target?.close();
  target = null;
});

/** The pids of a process's children (Linux /proc). */
const childrenOf = (pid: number): number[] => readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);

/** Starts `coachbench serve --workers 2` and waits for its start-up line. */
async function serveProcess(extra: string[] = []) {
  const child = spawn(process.execPath, [BIN, 'serve', '--workers', '2', '--port', '0', '--participants', '3', '--keepalive', '5s', ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  expect(await eventually(() => stdout.includes('\n'), 15_000), stderr).toBe(true);
  return { child, exited, line: stdout.trim(), stderr: () => stderr, workers: childrenOf(child.pid as number) };
}

describe('multi-worker lifecycle', () => {
  it('close() ends the streams and leaves no worker process; the stats end at 0', async () => {
    target = await startTarget({ workers: 2, participants: 2, keepAliveMs: 5_000 });
    const pids = target.workers!.map((w) => w.pid);
    expect(pids).toHaveLength(2);
    expect(target.workers!.map((w) => w.index)).toEqual([1, 2]);
    const p = participant(target);
    const streams = [
      await openStream(target, `/participants/${p.userId}/stream`, p.token),
      await openStream(target, `/participants/${p.userId}/stream`, p.token),
    ];
    expect((await target.collectStats!()).openStreams).toBe(2);
    await target.close();
    for (const s of streams) expect((await s.ended).atMs).toBeGreaterThan(0);
    expect(pids.every(processGone)).toBe(true);
    expect(target.stats()).toMatchObject({ openStreams: 0, streamHandles: 0 });
    target = null;
  });

  it('a worker that dies is reported and stops the others (no restart)', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    target = await startTarget({ workers: 2, participants: 2 });
    const [first, second] = target.workers!.map((w) => w.pid) as [number, number];
    process.kill(second, 'SIGKILL');
    const reason = await target.failed!;
    expect(reason).toBe(`target worker 2 (pid ${second}) died: signal SIGKILL; stopping the target`);
    expect(stderr).toHaveBeenCalledWith(`coachbench: ${reason}\n`);
    expect(await eventually(() => processGone(first), 6_000)).toBe(true);
  });

  it('a port in use is a StartError naming it, and leaves no worker behind', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await startTarget({ workers: 2, port, participants: 2 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StartError);
      expect((error as Error).message).toContain('EADDRINUSE');
      expect(childrenOf(process.pid).length).toBe(0);
    } finally {
      blocker.close();
    }
  });
});

describe('serve --workers', () => {
  it('takes a count or auto, and refuses anything else with one ConfigError line', () => {
    expect(resolveServeOptions({ workers: '3' }).options.workers).toBe(3);
    expect(resolveServeOptions({ workers: 'auto' }).options.workers).toBe('auto');
    expect(resolveServeOptions({}).options.workers).toBeUndefined();
    for (const bad of ['0', '65', 'two', '1.5'])
      expect(() => resolveServeOptions({ workers: bad })).toThrow(new ConfigError(`--workers: "${bad}" must be an integer in 1..64 or auto`));
    expect(resolveServiceWorkers('auto')).toBe(Math.min(64, availableParallelism()));
  });

  it('prints the workers in its line; SIGINT closes every worker and exits 0', async () => {
    const serve = await serveProcess();
    expect(serve.line).toMatch(/, 3 participants, 2 workers(, ~[\d,]+ streams each \(open-file limit \d+\))?$/);
    expect(serve.workers).toHaveLength(2);
    serve.child.kill('SIGINT');
    expect(await serve.exited).toBe(0);
    expect(serve.workers.every(processGone)).toBe(true);
  });

  it('SIGTERM also exits 0; a killed worker makes serve exit 1 with one stderr line', async () => {
    const calm = await serveProcess();
    calm.child.kill('SIGTERM');
    expect(await calm.exited).toBe(0);
    const serve = await serveProcess();
    const [victim, other] = serve.workers as [number, number];
    process.kill(victim, 'SIGKILL');
    expect(await serve.exited).toBe(1);
    expect(serve.stderr()).toMatch(/^coachbench: target worker [12] \(pid \d+\) died: signal SIGKILL; stopping the target\n$/);
    expect(processGone(other)).toBe(true);
  });
});
