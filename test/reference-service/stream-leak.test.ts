/** Opening and closing 10,000 streams leaves no stream, timer or listener behind. */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { eventually, startTestTarget } from '../support/target-helpers.js';

const TOTAL = 10_000;
const CONCURRENCY = 400;
let target: RunningTarget;
beforeAll(async () => {
  target = await startTestTarget({ keepAliveMs: 40, participants: 200 });
});
afterAll(() => target.close());

/** Opens one stream on a raw socket, holds it `holdMs` after the headers, then hangs up. */
function openAndClose(path: string, token: string, holdMs: number): Promise<{ status: number; frames: number }> {
  const url = new URL(target.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = '';
    let status = 0;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (status === 0 && received.includes('\r\n\r\n')) {
        status = Number(received.slice(9, 12));
        setTimeout(() => socket.destroy(), holdMs);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status, frames: received.split('KEEP_ALIVE').length - 1 }));
    socket.write(
      `GET /api/v1${path} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\nX-API-Key: ${target.fixtures.apiKey}\r\nAuthorization: Bearer ${token}\r\n\r\n`,
    );
  });
}

describe('stream leak', () => {
  it(`opens and closes ${TOTAL} streams (chat and main); open streams and handles return to zero`, async () => {
    const participants = target.fixtures.participants;
    let next = 0;
    let opened = 0;
    let withKeepAlive = 0;
    let peakOpen = 0;
    const worker = async (): Promise<void> => {
      while (next < TOTAL) {
        const i = next++;
        const p = participants[i % participants.length]!;
        const path = i % 10 === 0 ? `/participants/${p.userId}/stream` : `/participants/${p.userId}/chat_sessions/${p.chatSessionIds[i % 3]}/stream`;
        // Hold some streams past their first KEEP_ALIVE so the wheel's re-insert path runs too.
        const result = await openAndClose(path, p.token, i % 4 === 0 ? 60 : 0);
        if (result.status === 200) opened += 1;
        if (result.frames > 0) withKeepAlive += 1;
        peakOpen = Math.max(peakOpen, target.stats().openStreams);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(opened).toBe(TOTAL);
    expect(withKeepAlive).toBeGreaterThan(TOTAL / 8);
    // Streams overlapped (the exact peak depends on how busy the machine is).
    expect(peakOpen).toBeGreaterThan(CONCURRENCY / 10);
    const settled = await eventually(() => target.stats().openStreams === 0 && target.stats().streamHandles === 0, 5_000);
    expect(target.stats()).toMatchObject({ openStreams: 0, openChatStreams: 0, openMainStreams: 0, streamHandles: 0 });
    expect(settled).toBe(true);
  }, 60_000);
});
