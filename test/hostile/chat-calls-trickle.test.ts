/**
 * Message posts and membership calls are held to their whole timeout (docs/design.md §6,
 * "Request timeout"), through bin/coachbench.js as users run it. A relay in front of a real
 * `serve` passes the streams and every other route through, and answers the posts and the
 * membership calls with their headers and then a byte every 100 ms, which undici's idle body
 * timer never notices: without the bound each call stays in flight until the run's end cuts
 * it, uncounted, and the posts' 256 slots in flight fill on a longer run. Needs dist/.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { type IncomingMessage, request, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../support/bin-helpers.js';
import { profileFile, quickProfile, TIMING_SLACK } from '../support/profiles.js';
import { readRunReport } from '../support/run-report.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';
import { startServer, type TestServer } from '../support/throughput-helpers.js';

/** A post's and a membership call's whole timeout (docs/design.md §6). */
const CALL_TIMEOUT_MS = 10_000;

let dir: string;
let serve: ServeProcess;
let relay: TestServer;

/** The chat routes whose answers trickle: message posts, and every membership call. */
const trickled = (req: IncomingMessage): boolean => (req.method === 'POST' && /\/chat_messages$/.test(req.url ?? '')) || /\/members(\/|$)/.test(req.url ?? '');

function trickle(res: ServerResponse): void {
  res.writeHead(201, { 'content-type': 'application/json' });
  res.flushHeaders();
  const timer = setInterval(() => res.write(' '), 100);
  res.on('close', () => clearInterval(timer));
}

/** Passes one request to `serve` and its answer back as it comes (streams included). */
function pass(req: IncomingMessage, res: ServerResponse): void {
  const upstream = request(new URL(req.url ?? '/', serve.url), { method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    res.flushHeaders();
    answer.pipe(res);
  });
  upstream.on('error', () => res.destroy());
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-chat-trickle-'));
  serve = await startServe(join(dir, 'fixtures.json'), ['--keepalive', '1s', '--participants', '8', '--sessions', '2']);
  relay = await startServer((req, res) => {
    // Drained first: the relay answers these itself.
    if (trickled(req)) return void req.resume().on('end', () => trickle(res));
    pass(req, res);
  });
});
afterAll(async () => {
  await relay?.close();
  await serve?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('chat calls whose answers trickle', () => {
  it('message posts and membership calls fail, counted, once their whole timeout has passed, not cut uncounted at the end', async () => {
    const profile = await profileFile(
      dir,
      'trickle',
      quickProfile({
        ...TIMING_SLACK,
        // Long enough for the calls of the first seconds to reach their timeout.
        duration: `${(CALL_TIMEOUT_MS + 4_000) / 1_000}s`,
        target: { keepAlive: '1s' },
        chatStreams: { participants: 4, rampPerSec: 100, switchEvery: '0s', messageRatePerSec: 2, churnRatePerSec: 1 },
      }),
    );
    const out = join(dir, 'report');
    const result = await runBin(['run', '-p', profile, '-t', relay.url, '-f', serve.fixtures, '--expect-keepalive', '1s', '-o', out, '--quiet'], {
      deadlineMs: 45_000,
    });
    expect(result.killed, result.stderr).toBe(false);
    const report = await readRunReport(out);
    const chat = report.scenarios.chatStreams!;
    const why = `${result.stderr}\n${(report.metrics.samples.chat ?? []).join('\n')}`;
    // Each call sent in the first seconds had its whole timeout before the run ended: failed and
    // counted. A call the end cuts is neither (the run stopped it, not the target).
    expect(chat.messagesFailed, why).toBeGreaterThan(0);
    expect(chat.membershipOpsFailed, why).toBeGreaterThan(0);
    expect(chat.messagesSent, why).toBe(0);
    expect(report.checks.find((each) => each.id === 'stream.message.delivery')?.status, why).toBe('fail');
  }, 60_000);
});
