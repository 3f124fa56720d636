/**
 * Posts chat messages at the profile's rate on an absolute schedule (open model): each slot
 * picks a participant whose chat stream is open and posts into that session. The message
 * is registered with the delivery tracker before the POST, because a delivery can arrive
 * before the POST's own response.
 */

import { performance } from 'node:perf_hooks';
import { failureOfError, unexpectedStatus } from '../../contract/failure-codes.js';
import { schedulePacer } from '../../engine/arrival-pacer.js';
import { sendRenewing } from '../../engine/auth/credentials.js';
import { runOpenLoop } from '../../engine/open-loop.js';
import type { ScenarioContext } from '../../engine/scenario.js';
import { withTraceparent } from '../../engine/transport.js';
import { MESSAGE_POST_FAILED } from '../../metrics/checks/stream-checks.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { CHAT } from '../../metrics/names.js';
import { splitApiBase } from '../api-base.js';
import { exchange } from '../throughput/http-exchange.js';
import { targetStatusOfExchange } from '../throughput/response-check.js';
import type { ChatDriver } from './chat-driver.js';
import { correlationText } from './stream-observer.js';
import { authorizationOf, currentSession } from './virtual-participant.js';

/** A message post starting this late after its slot counts as a late slot. */
const LATENESS_MS = 10;
/** A post's whole exchange, send to the answer's last byte. */
const POST_TIMEOUT_MS = 10_000;

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
        const { answer: result } = await sendRenewing(
          ctx.credentials,
          headers,
          // exchange() reads the answer whole within the timeout, however slowly it trickles (docs/design.md §6).
          (sent) => exchange(dispatcher, origin, { method: 'POST', path, headers: sent, body }, POST_TIMEOUT_MS, cut),
          targetStatusOfExchange,
          undefined,
          // Delivery latency is the target's: it counts from the send that carried a valid token.
          () => driver.tracker.resend(seq, performance.now()),
        );
        if (!result.ok) {
          if (ctx.signal.aborted) return driver.tracker.cancel(seq);
          m.sample(CHAT.samples, `${MESSAGE_POST_FAILED}${result.detail}`);
        } else if (result.view.status === 201 || result.view.status === 200) {
          m.inc(CHAT.messagesSent);
          return;
        } else {
          // Answered and refused: the target's (or an intermediary's) no, which fails delivery as a refused upload fails photo.upload.
          m.inc(CHAT.messagesRefused);
          m.sample(CHAT.samples, `${MESSAGE_POST_FAILED}${unexpectedStatus(result.view.status, result.view.headers)}`);
        }
      } catch (error) {
        if (ctx.signal.aborted) return driver.tracker.cancel(seq);
        m.sample(CHAT.samples, `${MESSAGE_POST_FAILED}${failureOfError(error)} (${(error as Error).message})`);
      }
      m.inc(CHAT.messagesFailed);
      driver.tracker.cancel(seq);
    },
  });
}
