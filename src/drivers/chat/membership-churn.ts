/**
 * Drives member events through the reference target's membership extension (docs/design.md
 * §4): each slot runs one cycle on a session with an open stream — a coach joins
 * (JOINED) and leaves (LEFT), or, on a locked session, asks (REQUESTED) and is approved
 * (APPROVED, then LEFT) or rejected (REJECTED). A target without the extension answers 404
 * or 405 to the first call; churn then stops and the run goes on.
 */
import { failureOfError } from '../../contract/failure-codes.js';
import { sendRenewing } from '../../engine/auth/credentials.js';
import { runOpenLoop } from '../../engine/open-loop.js';
import { linearPacer } from '../../engine/pacer.js';
import type { ScenarioContext } from '../../engine/scenario.js';
import { CHAT } from '../../metrics/names.js';
import { splitApiBase } from '../api-base.js';
import { exchange, type HttpRequestSpec } from '../throughput/http-exchange.js';
import { NO_JSON, parseJson, targetStatusOfExchange } from '../throughput/response-check.js';
import type { ChatDriver } from './chat-driver.js';
import { currentSession } from './virtual-participant.js';

type Call = (method: HttpRequestSpec['method'], path: string, body?: unknown) => Promise<{ status: number; json: unknown }>;

/** A call's whole exchange, send to the answer's last byte. */
const CALL_TIMEOUT_MS = 10_000;

/** A call that got no answer: its failure code and words (ExchangeResult's detail). */
class CallFailed extends Error {}

export async function runMembershipChurn(ctx: ScenarioContext, driver: ChatDriver, startMs: number): Promise<void> {
  const rate = ctx.profile.chatStreams.churnRatePerSec;
  const durationMs = ctx.endMs - startMs;
  if (rate <= 0 || durationMs <= 0) return;
  const m = ctx.metrics;
  const { origin, basePath: prefix } = splitApiBase(ctx.apiBase);
  const cut = ctx.cut;
  let unsupported = false;
  let cycle = 0;

  const call =
    (token: string): Call =>
    async (method, path, body) => {
      const headers = {
        authorization: `Bearer ${token}`,
        'x-api-key': ctx.fixtures.apiKey,
        accept: 'application/json, application/problem+json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      };
      const { answer: result } = await sendRenewing(
        ctx.credentials,
        headers,
        // exchange() reads the answer whole within the timeout, however slowly it trickles (docs/design.md §6).
        // An empty body is none: undici sends a DELETE's without a Content-Length.
        (sent) =>
          exchange(
            ctx.dispatcher,
            origin,
            { method, path: `${prefix}${path}`, headers: sent, body: body === undefined ? '' : JSON.stringify(body) },
            CALL_TIMEOUT_MS,
            cut,
          ),
        targetStatusOfExchange,
      );
      if (!result.ok) throw new CallFailed(result.detail);
      const parsed = parseJson(result.view.body);
      m.inc(CHAT.membershipOps);
      if (result.view.status >= 400) m.inc(CHAT.membershipOpsFailed);
      return { status: result.view.status, json: parsed === NO_JSON ? null : parsed };
    };

  await runOpenLoop({
    pacer: linearPacer({ startRatePerSec: rate, endRatePerSec: rate, durationMs }),
    maxInFlight: 100,
    latenessMs: 50,
    startMs,
    signal: ctx.signal,
    fire: async () => {
      if (unsupported) return;
      const participant = driver.pickOpenParticipant(Math.random());
      if (!participant) return;
      // The participant owns its sessions; a coach token (when given) plays the joining coach.
      const send = call(ctx.fixtures.coachToken ?? participant.fixture.token);
      const base = `/participants/${encodeURIComponent(participant.fixture.userId)}/chat_sessions/${encodeURIComponent(currentSession(participant))}/members`;
      const memberId = `cb-coach-${driver.runTag}-${++cycle}`;
      try {
        const joined = await send('POST', base, { memberId, memberType: 'coach', memberName: 'coachbench coach', photoUrl: null });
        if (joined.status === 404 || joined.status === 405) {
          unsupported = true;
          m.sample(CHAT.samples, `membership extension not available (HTTP ${joined.status}); churn stopped`);
          return;
        }
        const requested = joined.status === 202 || (joined.json as { status?: string } | null)?.status === 'REQUESTED';
        if (requested) {
          const approve = cycle % 2 === 0;
          const decided = await send('POST', `${base}/${encodeURIComponent(memberId)}/${approve ? 'approve' : 'reject'}`, { by: participant.fixture.userId });
          if (!approve || decided.status >= 400) return;
        }
        await send('DELETE', `${base}/${encodeURIComponent(memberId)}`);
      } catch (error) {
        if (ctx.signal.aborted) return;
        m.inc(CHAT.membershipOpsFailed);
        const said = error instanceof CallFailed ? error.message : `${failureOfError(error)} (${(error as Error).message})`;
        m.sample(CHAT.samples, `membership call failed: ${said}`);
      }
    },
  });
}
