/**
 * Turns the run's measurements into the conformance checks of docs/design.md §5.4. Pure:
 * stream checks read the chat summary, request-level checks read their evidence counters,
 * generator.healthy reads the generator summary. Merged data gives merged checks. Every
 * check passes only on evidence (check-result.ts): with none it is a skip with the reason.
 */

import { CHECK_IDS } from '../../contract/check-ids.js';
import type { ChatStreamsSummary, CheckResult, GeneratorSummary } from '../../contract/report.js';
import { buildAuthSummary, tokenRefreshCheck } from '../auth-summary.js';
import type { MetricSet } from '../metric-set.js';
import { CHAT } from '../names.js';
import { fail, passOnEvidence, skip } from './check-result.js';
import { type LoadInputs, loadAchieved } from './load-achieved.js';
import { type RequestCheckId, requestCheck } from './request-checks.js';
import { requestsExpectationsCheck } from './requests-check.js';
import { streamChecks } from './stream-checks.js';

const percent = (share: number): string => `${Math.round(share * 1_000) / 10}%`;

function generatorHealthy(generator: GeneratorSummary): CheckResult {
  const { eventLoopDelayMs, requestLoopDelayMs, maxEventLoopDelayP99Ms: bound, cpuPercent, behind } = generator;
  const p99 = eventLoopDelayMs.p99;
  if (p99 > bound) {
    return fail('generator.healthy', p99, `event-loop delay p99 ${p99} ms exceeds ${bound} ms: latencies describe the driver, not the target`);
  }
  if (requestLoopDelayMs && requestLoopDelayMs.p99 > bound) {
    const requestP99 = requestLoopDelayMs.p99;
    return fail(
      'generator.healthy',
      requestP99,
      `the request thread's event-loop delay p99 ${requestP99} ms exceeds ${bound} ms: request latencies describe the driver, not the target`,
    );
  }
  if (behind && behind.share > behind.maxShare) {
    return fail(
      'generator.healthy',
      p99,
      `the driver fell behind in ${behind.intervals} interval(s), ${behind.seconds} s or ${percent(behind.share)} of the judged run (more than ${percent(behind.maxShare)}): ` +
        `its event-loop delay p99 exceeded ${bound} ms there, so those seconds' latencies describe the driver, not the target (marked in the time series)`,
    );
  }
  const behindNote = behind && behind.intervals > 0 ? `; behind in ${behind.intervals} interval(s), ${percent(behind.share)} of the judged run` : '';
  const requestNote = requestLoopDelayMs ? `; request thread p99 ${requestLoopDelayMs.p99} ms` : '';
  return passOnEvidence(
    'generator.healthy',
    eventLoopDelayMs.count,
    `event-loop delay p99 ${p99} ms within ${bound} ms over ${eventLoopDelayMs.count} samples${requestNote}${behindNote}; CPU ${cpuPercent}%`,
    'the event-loop delay was never sampled',
  );
}

export interface CheckInputs {
  total: MetricSet;
  chat: ChatStreamsSummary | null;
  generator: GeneratorSummary;
  /** The plan as driven and what was held (load.achieved); absent: the check is a skip that says so. */
  load?: LoadInputs;
  /** The proxy the run went through (its origin), or null: the stream checks name it beside the target. */
  proxy?: string | null;
  /** The profile's enabled request kinds: requests.expectations wants an answer judged for each. */
  kinds?: readonly string[];
}

export function evaluateChecks({ total, chat, generator, load, proxy = null, kinds }: CheckInputs): CheckResult[] {
  const byId = new Map<string, CheckResult>();
  byId.set('load.achieved', load ? loadAchieved(load) : skip('load.achieved', 'the load driven was not measured'));
  byId.set('auth.token.refresh', tokenRefreshCheck(buildAuthSummary(total)));
  if (chat) {
    const behind = {
      keepAliveViolations: total.count(CHAT.keepAliveViolationsBehind),
      keepAliveBunched: total.count(CHAT.keepAliveBunchedBehind),
      stalledSilentAfterHeaders: total.count(CHAT.stalledSilentAfterHeadersBehind),
    };
    const gatewayPages = { opens: total.count(CHAT.openGatewayPages), first: total.samplesOf(CHAT.gatewayPageSamples)[0] ?? null };
    for (const result of streamChecks(chat, behind, { proxy, messagesRefused: total.count(CHAT.messagesRefused), gatewayPages })) byId.set(result.id, result);
  }
  byId.set('generator.healthy', generatorHealthy(generator));
  byId.set('requests.expectations', requestsExpectationsCheck(total, kinds));
  return CHECK_IDS.map((id) => byId.get(id) ?? (id.startsWith('stream.') ? skip(id, 'chat streams were off') : requestCheck(total, id as RequestCheckId)));
}
