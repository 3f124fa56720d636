// The least any client holding the streams `coachbench run` checks does: undici request() per
// stream and an eventsource-parser per stream that parses every frame, nothing else. Shared by the rulers
// that hold coachbench against it: bench/bare-client.js (memory per stream) and
// bench/open-floor-client.js (the open model's latency floor while streams are held).
// Stream i is participant floor(i/2)'s main stream (i even) or its first chat session's (i odd),
// the pairs `coachbench run` holds; stream i opens at start + i / rampPerSec.
import { createParser } from 'eventsource-parser';
import { request } from 'undici';

/**
 * Opens `streams` streams at `rampPerSec` through `dispatcherOf(participantIndex)`.
 * Returns the live counts, a promise that settles once the last one has been asked for, and close().
 */
export function holdStreams({ fixtures, url, streams, rampPerSec, dispatcherOf }) {
  const counts = { open: 0, frames: 0, failed: 0 };
  const bodies = [];

  async function openOne(i) {
    const participant = fixtures.participants[Math.floor(i / 2) % fixtures.participants.length];
    const base = `/api/v1/participants/${participant.userId}`;
    const path = i % 2 === 0 ? `${base}/stream` : `${base}/chat_sessions/${participant.chatSessionIds[0]}/stream`;
    const answer = await request(`${url}${path}`, {
      dispatcher: dispatcherOf(Math.floor(i / 2)),
      headers: { authorization: `Bearer ${participant.token}`, 'x-api-key': fixtures.apiKey },
      bodyTimeout: 0,
      headersTimeout: 30_000,
    });
    const decoder = new TextDecoder();
    const parser = createParser({
      onEvent: () => {
        counts.frames++;
      },
    });
    answer.body.on('data', (chunk) => parser.feed(decoder.decode(chunk, { stream: true })));
    answer.body.on('error', () => undefined);
    bodies.push(answer.body);
    counts.open++;
  }

  const ramped = (async () => {
    const start = performance.now();
    for (let i = 0; i < streams; i++) {
      const wait = start + (i / rampPerSec) * 1_000 - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      openOne(i).catch((error) => {
        counts.failed++;
        console.error('open failed', error.code ?? error.message);
      });
    }
  })();

  return {
    counts,
    ramped,
    close() {
      for (const body of bodies) body.destroy();
    },
  };
}
