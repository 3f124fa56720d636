/**
 * Helpers for multi-worker target tests: reach a chosen worker. The primary hands each new
 * connection to the next worker (round-robin), so a stream or a client is (re)opened until
 * its `X-Coachbench-Worker` answer names the wanted worker.
 */
import { Client } from 'undici';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { API, openStream, type SseReader } from './target-helpers.js';

const ATTEMPTS = 30;

/** The worker that answered (the `X-Coachbench-Worker` header), as a number. */
export const workerOf = (headers: Record<string, string | string[] | undefined>): number => Number(headers['x-coachbench-worker']);

/** Opens a stream whose connection landed on worker `index`. */
export async function openStreamOn(target: RunningTarget, index: number, path: string, token: string): Promise<SseReader> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const stream = await openStream(target, path, token);
    if (workerOf(stream.headers) === index) return stream;
    stream.close();
  }
  throw new Error(`no stream landed on worker ${index} in ${ATTEMPTS} attempts`);
}

/** A JSON call made on one connection (so on one worker). */
export interface WorkerClient {
  index: number;
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, json?: unknown, token?: string): Promise<{ status: number; body: unknown; worker: number }>;
  close(): Promise<void>;
}

/** A one-connection client whose connection landed on worker `index` (probed with OPTIONS). */
export async function clientOn(target: RunningTarget, index: number): Promise<WorkerClient> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const client = new Client(target.url, { pipelining: 1 });
    const probe = await client.request({ method: 'OPTIONS', path: `${API}/tags` });
    await probe.body.dump();
    if (workerOf(probe.headers) !== index) {
      await client.close();
      continue;
    }
    return {
      index,
      call: async (method, path, json, token = target.fixtures.coachToken) => {
        const headers: Record<string, string> = { 'x-api-key': target.fixtures.apiKey, authorization: `Bearer ${token}` };
        if (json !== undefined) headers['content-type'] = 'application/json';
        const res = await client.request({ method, path: `${API}${path}`, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
        const text = await res.body.text();
        return { status: res.statusCode, body: text === '' ? undefined : (JSON.parse(text) as unknown), worker: workerOf(res.headers) };
      },
      close: () => client.close(),
    };
  }
  throw new Error(`no connection landed on worker ${index} in ${ATTEMPTS} attempts`);
}

/** True when no process with this pid exists any more. */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
