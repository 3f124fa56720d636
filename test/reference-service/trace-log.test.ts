/**
 * What `handlingMs` in the trace log measures (docs/target.md "Trace log"): a request's time
 * until its answer is handed to the socket, so work the target does after the write is not
 * counted, and a stream's whole life. A real node:http server and real sockets.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { DelayScheduler } from '../../src/reference-service/faults/precise-delay.js';
import { Responder } from '../../src/reference-service/http/http-reply.js';
import { TraceLog, type TraceLogLine } from '../../src/reference-service/http/trace-log.js';

const BUSY_AFTER_WRITE_MS = 60;
const STREAM_LIFE_MS = 150;
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

let dir = '';
let server: Server | null = null;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A server whose every request is watched by a TraceLog writing to a temp file. */
async function serveWatched(handler: (res: ServerResponse, reply: Responder) => void): Promise<{ url: string; log: TraceLog; file: string }> {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-trace-log-'));
  const file = join(dir, 'traces.jsonl');
  const log = new TraceLog(file);
  const reply = new Responder(new DelayScheduler(), { latencyMs: 0 }, log);
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    log.watch(req, res, req.url ?? '/');
    handler(res, reply);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, log, file };
}

async function onlyLine(log: TraceLog, file: string): Promise<TraceLogLine> {
  await log.close();
  const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as TraceLogLine;
}

function busyWait(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Holds the thread as a descheduled target would: the answer is already on its way.
  }
}

describe('trace log handlingMs', () => {
  it('stops at the answer handed to the socket, not at work the target does after it', async () => {
    const { url, log, file } = await serveWatched((res, reply) => {
      res.once('finish', () => busyWait(BUSY_AFTER_WRITE_MS));
      reply.json(res, 200, { ok: true });
    });
    const answer = await request(`${url}/api/v1/x`, { headers: { traceparent: TRACEPARENT } });
    expect(await answer.body.json()).toEqual({ ok: true });
    const line = await onlyLine(log, file);
    expect(line).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentId: '00f067aa0ba902b7', status: 200, path: '/api/v1/x' });
    expect(line.handlingMs).toBeGreaterThanOrEqual(0);
    expect(line.handlingMs).toBeLessThan(BUSY_AFTER_WRITE_MS / 2);
  });

  it("runs a stream's whole life, to its close", async () => {
    const { url, log, file } = await serveWatched((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
    });
    const aborter = new AbortController();
    const answer = await request(`${url}/api/v1/stream`, { headers: { traceparent: TRACEPARENT }, signal: aborter.signal });
    answer.body.on('error', () => {});
    await new Promise((resolve) => setTimeout(resolve, STREAM_LIFE_MS));
    aborter.abort();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const line = await onlyLine(log, file);
    expect(line.handlingMs).toBeGreaterThanOrEqual(STREAM_LIFE_MS - 5);
  });
});
