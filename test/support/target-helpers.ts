/**
 * Test helpers for the reference target: start it on 127.0.0.1:0 (alone, or with its fixtures
 * file for a run against `--target`), call its API with undici, and read SSE streams frame by
 * frame with arrival times (performance.now()).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { type FormData, request } from 'undici';
import { expect } from 'vitest';
import { startTarget } from '../../src/reference-service/start-target.js';
import type { RunningTarget, TargetOptions } from '../../src/reference-service/target-types.js';

export const API = '/api/v1';

/**
 * Timing tolerance for frames seen by a client on a loaded 2-core machine (other test files
 * and builds run beside these). The target's own timer accuracy is ~1 ms; timing-primitives
 * tests that directly.
 */
export const SLACK_MS = 40;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Asserts a cadence robustly on a busy machine: the median gap is within 10 ms of
 * `expectedMs` and at least 3/4 of the gaps are within SLACK_MS, or all but the two one
 * scheduling hiccup spoils (it stretches one gap and shortens the next: of 5 gaps, 3/4 would
 * let no hiccup pass); a wrong cadence moves them all.
 */
export function expectCadence(gapsMs: readonly number[], expectedMs: number): void {
  expect(gapsMs.length, 'gaps').toBeGreaterThanOrEqual(3);
  expect(Math.abs(median(gapsMs) - expectedMs), `median of ${gapsMs.map((g) => g.toFixed(1)).join(', ')}`).toBeLessThan(10);
  const close = gapsMs.filter((g) => Math.abs(g - expectedMs) < SLACK_MS).length;
  expect(close, `gaps within ${SLACK_MS} ms of ${expectedMs}: ${gapsMs.map((g) => g.toFixed(1)).join(', ')}`).toBeGreaterThanOrEqual(
    Math.min(Math.ceil(gapsMs.length * 0.75), gapsMs.length - 2),
  );
}

/** Starts a small target with a short keep-alive interval unless told otherwise. */
export function startTestTarget(options: TargetOptions = {}): Promise<RunningTarget> {
  return startTarget({ participants: 6, keepAliveMs: 200, ...options });
}

/** A reference target in this process and the fixtures file `run --target URL --fixtures FILE` reads for it. */
export interface TargetWithFixtures {
  target: RunningTarget;
  /** The fixtures file's path. */
  fixtures: string;
  /** The folder holding it, where a test writes its profiles and report folders too. */
  dir: string;
}

/**
 * Where a fixtures file goes: `fixtures.json` in a new temporary folder named from `prefix`,
 * or `fixtures-PORT.json` in an existing `dir` that may hold other targets' files.
 */
export type FixturesFolder = { prefix: string } | { dir: string };

/** The target quickProfile (profiles.ts) describes: 30 participants, 2 sessions each, a KEEP_ALIVE every 500 ms. */
const RUN_TARGET: TargetOptions = { participants: 30, sessionsPerParticipant: 2, keepAliveMs: 500 };

/**
 * Starts the reference target a run drives from outside, as `coachbench serve --fixtures-out`
 * would: quickProfile's target unless `options` say otherwise, its fixtures file written in `folder`.
 */
export async function startTargetWithFixtures(folder: FixturesFolder, options: TargetOptions = {}): Promise<TargetWithFixtures> {
  const dir = 'dir' in folder ? folder.dir : await mkdtemp(join(tmpdir(), folder.prefix));
  const target = await startTarget({ ...RUN_TARGET, ...options });
  const fixtures = join(dir, 'dir' in folder ? `fixtures-${target.port}.json` : 'fixtures.json');
  await writeFile(fixtures, JSON.stringify(target.fixtures));
  return { target, fixtures, dir };
}

export interface CallOptions {
  token?: string | null;
  apiKey?: string | null;
  json?: unknown;
  body?: string | Buffer | FormData;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  body: unknown;
  elapsedMs: number;
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Calls `method path` (path below /api/v1) with the coach token and API key by default. */
export async function call(target: RunningTarget, method: Dispatcher.HttpMethod, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { accept: 'application/json, application/problem+json', ...options.headers };
  const apiKey = options.apiKey === undefined ? target.fixtures.apiKey : options.apiKey;
  const token = options.token === undefined ? target.fixtures.coachToken : options.token;
  if (apiKey !== null) headers['x-api-key'] = apiKey;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const started = performance.now();
  const res = await request(`${target.url}${API}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.body.text();
  const elapsedMs = performance.now() - started;
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, headers: flatHeaders(res.headers), text, body: parsed, elapsedMs };
}

export interface Frame {
  atMs: number;
  /** The frame's lines as they arrived, without the blank line that ends it (`id: 3\ndata: {...}`). */
  raw: string;
  data: string;
  /** The frame's `id:` (events carry one; KEEP_ALIVEs do not). */
  id?: string;
  /** The parsed object, or null when the frame is not valid JSON. */
  json: { eventType: string; payload: unknown } | null;
}

/** A stream read frame by frame. */
export interface SseReader {
  status: number;
  headers: Record<string, string>;
  /** performance.now() when the request was sent and when the headers arrived. */
  requestedAtMs: number;
  headersAtMs: number;
  frames: Frame[];
  /** Resolves when the server ends or cuts the stream (never rejects). */
  ended: Promise<{ atMs: number; error: boolean }>;
  /** Frames whose eventType is not KEEP_ALIVE (bad-json frames included, as eventType ''). */
  events(): Frame[];
  keepAlives(): Frame[];
  waitFor(predicate: (frames: Frame[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Opens `path` (below /api/v1) as an SSE stream with the given bearer token. */
export async function openStream(target: RunningTarget, path: string, token: string): Promise<SseReader> {
  const requestedAtMs = performance.now();
  const res = await request(`${target.url}${API}${path}`, {
    headers: { accept: 'text/event-stream', authorization: `Bearer ${token}`, 'x-api-key': target.fixtures.apiKey },
  });
  const headersAtMs = performance.now();
  const frames: Frame[] = [];
  let buffer = '';
  const listeners = new Set<() => void>();
  res.body.setEncoding('utf8');
  res.body.on('data', (chunk: string) => {
    const atMs = performance.now();
    buffer += chunk;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const raw = buffer.slice(0, end);
      const lines = raw.split('\n');
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      const dataLine = lines.find((line) => line.startsWith('data:'));
      // A `retry:`-only block is no event.
      if (dataLine === undefined) continue;
      const data = dataLine.replace(/^data: ?/, '');
      const id = lines.find((line) => line.startsWith('id:'))?.replace(/^id: ?/, '');
      let json: Frame['json'] = null;
      try {
        json = JSON.parse(data) as Frame['json'];
      } catch {
        json = null;
      }
      frames.push({ atMs, raw, data, json, ...(id !== undefined ? { id } : {}) });
    }
    for (const listener of listeners) listener();
  });
  const ended = new Promise<{ atMs: number; error: boolean }>((resolve) => {
    res.body.once('end', () => resolve({ atMs: performance.now(), error: false }));
    res.body.once('error', () => resolve({ atMs: performance.now(), error: true }));
  });
  const reader: SseReader = {
    status: res.statusCode,
    headers: flatHeaders(res.headers),
    requestedAtMs,
    headersAtMs,
    frames,
    ended,
    events: () => frames.filter((f) => f.json?.eventType !== 'KEEP_ALIVE'),
    keepAlives: () => frames.filter((f) => f.json?.eventType === 'KEEP_ALIVE'),
    waitFor: (predicate, timeoutMs = 3_000) =>
      new Promise<void>((resolve, reject) => {
        if (predicate(frames)) return resolve();
        const check = (): void => {
          if (!predicate(frames)) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `timed out after ${timeoutMs} ms; frames: ${frames
                .map((f) => f.data)
                .join(' | ')
                .slice(0, 500)}`,
            ),
          );
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
      }),
    close: () => res.body.destroy(),
  };
  return reader;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 10 ms until it holds or `timeoutMs` passes; returns whether it held. */
export async function eventually(condition: () => boolean, timeoutMs = 3_000): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (condition()) return true;
    await sleep(10);
  }
  return condition();
}

/** The five response headers docs/design.md §4 requires on every response. */
export const FIVE_HEADERS = [
  'access-control-allow-headers',
  'access-control-allow-methods',
  'access-control-allow-origin',
  'cache-control',
  'content-type',
] as const;

/** A participant of the fixtures by index (0-based). */
export function participant(target: RunningTarget, index = 0) {
  const p = target.fixtures.participants[index];
  if (!p) throw new Error(`fixtures have no participant #${index}`);
  return p;
}

/** Reads a problem+json body's fields (fails the caller's expectation when it is not one). */
export function problemOf(result: CallResult): { type: string; title: string; status: number; detail: string; instance: string } {
  return result.body as { type: string; title: string; status: number; detail: string; instance: string };
}
