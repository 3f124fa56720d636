/**
 * Turns the run's measurements into the conformance checks of docs/design.md §5.
 * Pure: stream checks read the chat summary, request-level checks read their evidence
 * counters, generator.healthy reads the generator summary. Merged data gives merged checks.
 */

import { CHECK_IDS, type CheckId } from '../../contract/check-ids.js';
import type { ChatStreamsSummary, CheckResult, GeneratorSummary } from '../../contract/report.js';
import type { MetricSet } from '../metric-set.js';
import { evidenceFailures, evidenceRuns, evidenceSamples } from './evidence.js';

const pass = (id: CheckId, observed: number | string, detail: string): CheckResult => ({ id, status: 'pass', observed, detail });
const fail = (id: CheckId, observed: number | string, detail: string): CheckResult => ({ id, status: 'fail', observed, detail });
const skip = (id: CheckId, detail: string): CheckResult => ({ id, status: 'skip', observed: null, detail });

const sum = (record: Record<string, number>): number => Object.values(record).reduce((a, b) => a + b, 0);
const top = (record: Record<string, number>): string =>
  Object.entries(record)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');

function streamChecks(chat: ChatStreamsSummary): CheckResult[] {
  const results: CheckResult[] = [];
  const failedOpens = chat.openFailed + chat.mainStreams.openFailed;
  const drops = chat.dropped + chat.mainStreams.dropped;
  const opens = chat.opened + chat.mainStreams.opened;
  if (opens === 0 && failedOpens === 0) results.push(fail('stream.open', 0, 'no stream was opened'));
  else if (failedOpens + drops > 0) {
    results.push(
      fail(
        'stream.open',
        failedOpens + drops,
        `${failedOpens} opens failed (${top(chat.openFailures) || 'none'}), ${drops} streams cut by the target (${top(chat.drops) || 'none'})`,
      ),
    );
  } else results.push(pass('stream.open', opens, `${opens} streams opened with 200 text/event-stream and stayed open`));

  const { expectedKeepAliveMs: expected, keepAliveToleranceMs: tol } = chat;
  const cadenceBad = chat.keepAliveViolations + chat.firstKeepAliveLate;
  const gaps = chat.keepAliveGapMs.count + chat.firstKeepAliveMs.count;
  if (cadenceBad > 0) {
    results.push(
      fail(
        'stream.keepalive.cadence',
        cadenceBad,
        `${chat.keepAliveViolations} KEEP_ALIVE gaps outside ${expected} ± ${tol} ms (max ${chat.keepAliveGapMs.max} ms), ${chat.firstKeepAliveLate} first KEEP_ALIVEs late`,
      ),
    );
  } else if (gaps === 0) {
    results.push(skip('stream.keepalive.cadence', `no KEEP_ALIVE observed: streams lived shorter than the ${expected} ms interval`));
  } else {
    results.push(pass('stream.keepalive.cadence', chat.keepAliveGapMs.max, `${gaps} KEEP_ALIVE gaps within ${expected} ± ${tol} ms`));
  }

  results.push(
    chat.stalled > 0
      ? fail('stream.stall', chat.stalled, `${chat.stalled} streams silent for more than ${2 * expected} ms`)
      : pass('stream.stall', 0, `no stream silent for ${2 * expected} ms`),
  );

  results.push(
    chat.isolationViolations > 0
      ? fail('stream.session.isolation', chat.isolationViolations, `${chat.isolationViolations} events arrived on a stream of another session`)
      : pass('stream.session.isolation', 0, `every event belonged to its stream's session`),
  );

  const events = sum(chat.events) + sum(chat.mainStreams.events);
  results.push(
    chat.schemaViolations > 0
      ? fail('stream.event.schema', chat.schemaViolations, `${chat.schemaViolations} of ${events} events invalid (${top(chat.schemaViolationKinds)})`)
      : pass('stream.event.schema', events, `${events} events valid`),
  );

  if (chat.messagesSent === 0 && chat.deliveriesExpected === 0) {
    results.push(skip('stream.message.delivery', 'no message was injected'));
  } else if (chat.deliveriesMissing + chat.duplicates > 0) {
    results.push(
      fail(
        'stream.message.delivery',
        chat.deliveriesMissing + chat.duplicates,
        `${chat.deliveriesMissing} of ${chat.deliveriesExpected} deliveries missing, ${chat.duplicates} duplicates`,
      ),
    );
  } else {
    results.push(
      pass(
        'stream.message.delivery',
        chat.deliveriesReceived,
        `${chat.deliveriesReceived} of ${chat.deliveriesExpected} expected deliveries arrived exactly once`,
      ),
    );
  }
  return results;
}

function evidenceCheck(total: MetricSet, id: CheckId): CheckResult {
  const runs = total.count(evidenceRuns(id));
  const failures = total.count(evidenceFailures(id));
  if (runs === 0) return skip(id, 'not exercised in this run');
  if (failures === 0) return pass(id, runs, `${runs} observations held`);
  const first = total.samplesOf(evidenceSamples(id))[0] ?? '';
  return fail(id, failures, `${failures} of ${runs} observations failed; first: ${first}`);
}

export interface CheckInputs {
  total: MetricSet;
  chat: ChatStreamsSummary | null;
  generator: GeneratorSummary;
}

export function evaluateChecks({ total, chat, generator }: CheckInputs): CheckResult[] {
  const byId = new Map<CheckId, CheckResult>();
  if (chat) for (const result of streamChecks(chat)) byId.set(result.id, result);
  const loopP99 = generator.eventLoopDelayMs.p99;
  byId.set(
    'generator.healthy',
    generator.saturated
      ? fail(
          'generator.healthy',
          loopP99,
          `event-loop delay p99 ${loopP99} ms exceeds ${generator.maxEventLoopDelayP99Ms} ms: latencies describe the driver, not the target`,
        )
      : pass('generator.healthy', loopP99, `event-loop delay p99 ${loopP99} ms within ${generator.maxEventLoopDelayP99Ms} ms; CPU ${generator.cpuPercent}%`),
  );
  return CHECK_IDS.map((id) => byId.get(id) ?? (id.startsWith('stream.') ? skip(id, 'chat streams were off') : evidenceCheck(total, id)));
}
