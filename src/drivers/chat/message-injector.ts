/**
 * Posts chat messages at the profile's rate on an absolute schedule (open model): each slot
 * picks a participant whose chat stream is open and posts into that session. The message
 * is registered with the delivery tracker before the POST, because a delivery can arrive
 * before the POST's own response.
 */

import { performance } from 'node:perf_hooks';
import { failureOfError, unexpectedStatus } from '../../contract/failure-codes.js';
import { schedulePacer } from '../../engine/arrival-pacer.js';
import { discardAnswer, sendRenewing, statusOfAnswer } from '../../engine/auth/credentials.js';
import { discardBounded } from '../../engine/bounded-body.js';
import { runOpenLoop } from '../../engine/open-loop.js';
import type { ScenarioContext } from '../../engine/scenario.js';
import { withTraceparent } from '../../engine/transport.js';
import { MESSAGE_POST_FAILED } from '../../metrics/checks/stream-checks.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { CHAT } from '../../metrics/names.js';
import { splitApiBase } from '../api-base.js';
import type { ChatDriver } from './chat-driver.js';
import { correlationText } from './stream-observer.js';
import { authorizationOf, currentSession } from './virtual-participant.js';

/** A message post starting this late after its slot counts as a late slot. */
const LATENESS_MS = 10;

export async function runMessageInjector(ctx: ScenarioContext, driver: ChatDriver, startMs: number): Promise<void> {
  const rate = ctx.profile.chatStreams.messageRatePerSec;
  const durationMs = ctx.endMs - startMs;
  if (rate <= 0 || durationMs <= 0) return;
  const m: MetricSet = ctx.metrics;
  const { origin, basePath: prefix } = splitApiBase(ctx.apiBase);
  const cut = ctx.cut;
  const pacer = schedulePacer(
    { arrivals: ctx.profile.chatStreams.messageArrivals, stages: null, startRatePerSec: rate, endRatePerSec: rate, durationMs },
    { seed: ctx.profile.seed, stream: ctx.arrivalStream, workload: 'chatMessages' },
  );
  // The planned posts (Poisson: as drawn), which the achieved message rate is judged against.
  m.inc(CHAT.messagesScheduledSlots, pacer.totalSlots);
  await runOpenLoop({
    pacer,
    // Bounded: every in-flight post may hold a socket, and streams need the descriptors.
    maxInFlight: 256,
    latenessMs: LATENESS_MS,
    startMs,
    signal: ctx.signal,
    onLate: () => m.inc(CHAT.messagesLateSlots),
    onDropped: () => m.inc(CHAT.messagesDroppedSlots),
    fire: async (_slot, intendedMs) => {
      const participant = driver.pickOpenParticipant(Math.random());
      if (!participant) {
        // No session has an open stream (still ramping, or all dropped): the slot cannot be used.
        m.inc(CHAT.messagesDroppedSlots);
        return;
      }
      const sessionId = currentSession(participant);
      // Made here, not by the dispatcher, so a slow delivery can name its message's trace (docs/design.md §2.12).
      const { headers, traceId, spanId } = withTraceparent(
        {
          authorization: authorizationOf(participant),
          'x-api-key': ctx.fixtures.apiKey,
          'content-type': 'application/json',
          accept: 'application/json, application/problem+json',
        },
        ctx.transport,
      );
      const seq = driver.tracker.register(sessionId, intendedMs, driver.openStreamsOf(sessionId), traceId, spanId);
      try {
        // Under --http 2 a participant posts on its own connection, beside its streams, as a browser does.
        const dispatcher = (ctx.transport.http === '2' && driver.connections.existing(participant)) || ctx.dispatcher;
        const body = JSON.stringify({ chatSessionId: sessionId, text: correlationText(driver.runTag, seq) });
        const path = `${prefix}/participants/${encodeURIComponent(participant.fixture.userId)}/chat_messages`;
        const { answer: response } = await sendRenewing(
          ctx.credentials,
          headers,
          (sent) => dispatcher.request({ origin, path, method: 'POST', headers: sent, body, headersTimeout: 10_000, bodyTimeout: 10_000, signal: cut }),
          statusOfAnswer,
          discardAnswer,
          // Delivery latency is the target's: it counts from the send that carried a valid token.
          () => driver.tracker.resend(seq, performance.now()),
        );
        // Read to its end (a post is sent once its answer is whole), at most the body bound.
        await discardBounded(response.body);
        if (response.statusCode === 201 || response.statusCode === 200) {
          m.inc(CHAT.messagesSent);
          return;
        }
        // Answered and refused: the target's (or an intermediary's) no, which fails delivery as a refused upload fails photo.upload.
        m.inc(CHAT.messagesRefused);
        m.sample(CHAT.samples, `${MESSAGE_POST_FAILED}${unexpectedStatus(response.statusCode, response.headers)}`);
      } catch (error) {
        if (ctx.signal.aborted) return driver.tracker.cancel(seq);
        m.sample(CHAT.samples, `${MESSAGE_POST_FAILED}${failureOfError(error)} (${(error as Error).message})`);
      }
      m.inc(CHAT.messagesFailed);
      driver.tracker.cancel(seq);
    },
  });
}
