/**
 * The chat driver against small SSE servers on 127.0.0.1 (real sockets, real frames): the
 * cadence check judges the first KEEP_ALIVE early as well as late, and passes only when a
 * gap between two KEEP_ALIVEs was observed; streams cut by the target count under failure
 * codes; the stall check passes only on streams that outlived its window.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckId } from '../../../src/contract/check-ids.js';
import { resolveProfile } from '../../../src/contract/profile/resolve-profile.js';
import type { ChatStreamsSummary, CheckResult } from '../../../src/contract/report.js';
import { chatStreamsScenario } from '../../../src/drivers/chat/chat-soak.js';
import { runScenarios } from '../../../src/engine/run-scenarios.js';
import { buildChatSummary } from '../../../src/metrics/chat-summary.js';
import { evaluateChecks } from '../../../src/metrics/checks/evaluate-checks.js';
import { buildGeneratorSummary } from '../../../src/metrics/generator-summary.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { startServer, type TestServer } from '../../support/throughput-helpers.js';

const KEEP_ALIVE_FRAME = 'data: {"eventType":"KEEP_ALIVE","payload":null}\n\n';
const KEEP_ALIVE = { intervalMs: 300, toleranceMs: 100 };

/** Answers every stream with SSE headers, then lets `behave` write (or not) on it; any other request gets `otherStatus` (0: its connection is cut unanswered). */
async function sseServer(
  behave: (res: ServerResponse, timers: Set<NodeJS.Timeout>) => void,
  otherStatus = 404,
  { flushHeaders = true } = {},
): Promise<TestServer> {
  const timers = new Set<NodeJS.Timeout>();
  const server = await startServer((req, res) => {
    if (!req.url?.endsWith('/stream')) return void req.resume().on('end', () => (otherStatus === 0 ? req.socket.destroy() : res.writeHead(otherStatus).end()));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    // Unflushed, Node sends the headers with the first write: as an intermediary that holds them until the first event.
    if (flushHeaders) res.flushHeaders();
    behave(res, timers);
    res.on('close', () => {
      for (const timer of timers) clearTimeout(timer);
    });
  });
  return server;
}

/** Writes a KEEP_ALIVE every `everyMs`, the first one `firstMs` after the headers. */
const keepAliveEvery =
  (firstMs: number, everyMs: number, thenEndAfterMs = Infinity) =>
  (res: ServerResponse, timers: Set<NodeJS.Timeout>): void => {
    const tick = (delayMs: number): void => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (res.destroyed) return;
        res.write(KEEP_ALIVE_FRAME);
        tick(everyMs);
      }, delayMs);
      timers.add(timer);
    };
    tick(firstMs);
    if (Number.isFinite(thenEndAfterMs)) timers.add(setTimeout(() => res.end(), thenEndAfterMs));
  };

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs the chat scenario alone for `durationMs` against `url`; returns its checks and summary. */
async function runChat(url: string, durationMs: number, messageRatePerSec = 0): Promise<{ checks: Record<CheckId, CheckResult>; chat: ChatStreamsSummary }> {
  const profile = resolveProfile(
    {
      name: 'keepalive-evidence',
      duration: `${durationMs}ms`,
      chatStreams: { participants: 3, rampPerSec: 100, switchEvery: '0s', messageRatePerSec, churnRatePerSec: 0, reopenBase: '100ms', reopenMax: '300ms' },
    },
    'test',
  );
  const fixtures = {
    apiKey: 'key-0001',
    participants: [1, 2, 3].map((i) => ({ userId: `p-${i}`, token: `token-${i}`, chatSessionIds: [`cs-${i}`] })),
  };
  const total = new MetricSet();
  await runScenarios({
    scenarios: [chatStreamsScenario('evidence')],
    profile,
    targetUrl: url,
    fixtures,
    keepAlive: KEEP_ALIVE,
    stop: new AbortController(),
    sink: (interval) => total.add(interval),
    intervalMs: 100,
  });
  const chat = buildChatSummary(total, { participants: 3, keepAlive: KEEP_ALIVE });
  const generator = buildGeneratorSummary(total, { maxEventLoopDelayP99Ms: 1_000, processes: 1, rssBytes: 0 });
  const checks = Object.fromEntries(evaluateChecks({ total, chat, generator }).map((r) => [r.id, r])) as Record<CheckId, CheckResult>;
  return { checks, chat };
}

const passesWithoutEvidence = (checks: Record<CheckId, CheckResult>): string[] =>
  Object.values(checks)
    .filter((check) => check.status === 'pass' && !(typeof check.observed === 'number' && check.observed > 0))
    .map((check) => check.id);

describe('KEEP_ALIVE evidence against real SSE servers', () => {
  it('a KEEP_ALIVE right after the headers, then a reset within a second: cadence and open fail, nothing passes unseen', async () => {
    server = await sseServer((res) => {
      res.write(KEEP_ALIVE_FRAME);
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const { checks, chat } = await runChat(server.url, 1_500);
    expect(chat.keepAliveGapMs.count).toBe(0);
    expect(chat.firstKeepAliveEarly).toBeGreaterThan(5);
    expect(checks['stream.keepalive.cadence'].status).toBe('fail');
    expect(checks['stream.keepalive.cadence'].detail).toMatch(/ early$/);
    expect(checks['stream.open'].status).toBe('fail');
    expect(
      Object.keys(chat.drops).every((code) => code.startsWith('net:')),
      JSON.stringify(chat.drops),
    ).toBe(true);
    expect(checks['stream.stall'].status).toBe('skip');
    expect(passesWithoutEvidence(checks)).toEqual([]);
  });

  it('a healthy cadence passes on the gaps it observed, and stalls on the streams that outlived the window', async () => {
    server = await sseServer(keepAliveEvery(300, 300));
    const { checks, chat } = await runChat(server.url, 1_500);
    expect(chat.firstKeepAliveEarly).toBe(0);
    expect(chat.keepAliveGapMs.count).toBeGreaterThan(6);
    expect(checks['stream.keepalive.cadence']).toMatchObject({ status: 'pass', observed: chat.keepAliveGapMs.count });
    // Six streams (main and chat of three participants) held for the whole run, longer than 600 ms.
    expect(checks['stream.stall']).toMatchObject({ status: 'pass', observed: 6 });
    expect(checks['stream.open'].status).toBe('pass');
    // No message was injected: no delivery, isolation or schema evidence, and no pass for them.
    for (const id of ['stream.message.delivery', 'stream.session.isolation', 'stream.event.schema'] as const) expect(checks[id].status, id).toBe('skip');
    expect(passesWithoutEvidence(checks)).toEqual([]);
  });

  it('streams that end before their second KEEP_ALIVE: no gap, so cadence is a skip; the clean end is `end`', async () => {
    server = await sseServer(keepAliveEvery(300, 300, 450));
    const { checks, chat } = await runChat(server.url, 1_200);
    expect(chat.firstKeepAliveMs.count).toBeGreaterThan(0);
    expect(chat.keepAliveGapMs.count).toBe(0);
    expect(checks['stream.keepalive.cadence'].status).toBe('skip');
    expect(chat.drops.end).toBeGreaterThan(0);
    expect(checks['stream.open'].status).toBe('fail');
  });

  it('a first KEEP_ALIVE late by more than the tolerance fails the cadence', async () => {
    server = await sseServer(keepAliveEvery(550, 300));
    const { checks, chat } = await runChat(server.url, 1_200);
    expect(chat.firstKeepAliveLate).toBeGreaterThan(0);
    expect(checks['stream.keepalive.cadence'].status).toBe('fail');
  });

  it('headers held until the first KEEP_ALIVE read as slow opens, not as an early cadence', async () => {
    server = await sseServer(keepAliveEvery(300, 300), 404, { flushHeaders: false });
    const { checks, chat } = await runChat(server.url, 1_500);
    expect(chat.firstKeepAliveEarly).toBe(0);
    expect(chat.firstKeepAliveLate).toBe(0);
    expect(chat.firstKeepAliveWithHeaders).toBeGreaterThan(3);
    expect(chat.openLatencyMs.p50).toBeGreaterThan(250);
    expect(chat.firstKeepAliveFromRequestMs!.p50).toBeGreaterThan(250);
    // No first KEEP_ALIVE counts as early (a loaded machine may still push a gap out of its band).
    const cadence = checks['stream.keepalive.cadence'];
    expect(cadence.status === 'pass' || /, 0 early/.test(cadence.detail), cadence.detail).toBe(true);
    expect(checks['stream.open'].status).toBe('pass');
    expect(checks['stream.open'].detail).toMatch(/open latency p50 \d+ ms.*got their headers only with their first KEEP_ALIVE.*buffering/);
  });

  it('headers, then nothing on a connection that stays open: the stall names a buffering intermediary', async () => {
    server = await sseServer(() => undefined);
    const { checks, chat } = await runChat(server.url, 1_500);
    expect(chat.stalled).toBeGreaterThan(0);
    expect(chat.stalledSilentAfterHeaders).toBe(chat.stalled);
    expect(checks['stream.stall'].status).toBe('fail');
    expect(checks['stream.stall'].detail).toMatch(/got nothing after the headers.*intermediary buffering the response\?.*docs\/failure-codes\.md/);
  });

  it('a comment after the headers, then silence: a stall, but bytes came through, so no intermediary is named', async () => {
    server = await sseServer((res) => res.write(': hello\n\n'));
    const { checks, chat } = await runChat(server.url, 1_500);
    expect(chat.stalled).toBeGreaterThan(0);
    expect(chat.stalledSilentAfterHeaders).toBe(0);
    expect(checks['stream.stall'].detail).toMatch(/^\d+ streams silent for more than 600 ms$/);
  });

  it('KEEP_ALIVEs released three at a time: the cadence names bursts and buffering', async () => {
    // Every 450 ms: a late gap, then two of almost nothing; under the 600 ms stall window, so no stream is closed between bursts.
    server = await sseServer((res, timers) => {
      const burst = (): void => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (res.destroyed) return;
          res.write(KEEP_ALIVE_FRAME.repeat(3));
          burst();
        }, 450);
        timers.add(timer);
      };
      burst();
    });
    const { checks, chat } = await runChat(server.url, 1_500);
    expect(chat.keepAliveBunched).toBeGreaterThan(3);
    expect(checks['stream.keepalive.cadence'].status).toBe('fail');
    expect(checks['stream.keepalive.cadence'].detail).toMatch(/gaps under a tenth of the interval: KEEP_ALIVEs arriving in bursts \(an intermediary buffering/);
  });

  it('streams kept busy by events but sent no KEEP_ALIVE at all: the cadence fails on first KEEP_ALIVEs late, not a skip', async () => {
    // A valid event of the stream's own session every 150 ms, never a KEEP_ALIVE: nothing stalls, no gap is ever seen.
    server = await sseServer((res, timers) => {
      const sessionId = /chat_sessions\/([^/]+)\/stream/.exec(res.req.url ?? '')?.[1] ?? 'main';
      const member = { sessionId, participantId: 'p-1', memberId: 'c-1', memberType: 'coach', memberName: 'Ann', photoUrl: null };
      const frame = `data: ${JSON.stringify({ eventType: 'CHAT_SESSION_MEMBER_LEFT', payload: member })}\n\n`;
      const timer = setInterval(() => res.write(frame), 150);
      timers.add(timer as unknown as NodeJS.Timeout);
    });
    const { checks, chat } = await runChat(server.url, 1_500);
    expect(chat.keepAliveGapMs.count).toBe(0);
    expect(chat.stalled).toBe(0);
    expect(chat.firstKeepAliveLate).toBeGreaterThan(0);
    expect(checks['stream.keepalive.cadence'].status).toBe('fail');
    expect(checks['stream.keepalive.cadence'].detail).toMatch(new RegExp(`${chat.firstKeepAliveLate} first KEEP_ALIVEs late`));
    expect(chat.samples.some((sample) => /^no KEEP_ALIVE in the \d+ ms the stream was open \(expected 300 ± 100\)$/.test(sample))).toBe(true);
  });

  it('messages whose posts are refused fail delivery, as a refused upload fails photo.upload, naming the status', async () => {
    server = await sseServer(keepAliveEvery(300, 300), 503);
    const { checks, chat } = await runChat(server.url, 1_000, 20);
    expect(chat.messagesFailed).toBeGreaterThan(5);
    expect(chat.deliveriesExpected).toBe(0);
    expect(checks['stream.message.delivery'].status).toBe('fail');
    expect(checks['stream.message.delivery'].observed).toBe(chat.messagesFailed);
    expect(checks['stream.message.delivery'].detail).toBe(
      `0 of 0 deliveries missing, 0 duplicates, ${chat.messagesFailed} of ${chat.messagesFailed} message posts refused (first: POST chat_messages failed: status:503)`,
    );
    expect(chat.samples).toContain('POST chat_messages failed: status:503');
  });

  it('messages whose posts got no answer give delivery no evidence: a skip naming the failed posts', async () => {
    server = await sseServer(keepAliveEvery(300, 300), 0);
    const { checks, chat } = await runChat(server.url, 1_000, 20);
    expect(chat.messagesFailed).toBeGreaterThan(5);
    expect(chat.deliveriesExpected).toBe(0);
    expect(checks['stream.message.delivery'].status).toBe('skip');
    expect(checks['stream.message.delivery'].detail).toMatch(new RegExp(`0 posted, ${chat.messagesFailed} posts failed`));
    expect(chat.samples.some((sample) => /^POST chat_messages failed: net:/.test(sample))).toBe(true);
  });
});
