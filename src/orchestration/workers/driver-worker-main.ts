/**
 * Entry point of a driver worker process (`--workers N`). It drives its share of the
 * participants and sends every interval snapshot, HDR-encoded, to the parent, which merges
 * them. Signals are the parent's to handle; a lost parent stops the worker.
 */

import { MetricSet } from '../../metrics/metric-set.js';
import { registerParticipantTokens, registerSecret } from '../../util/redact.js';
import { waitUntil } from '../start-at.js';
import type { ParentMessage, WorkerMessage } from './messages.js';
import { runDriver } from './run-driver.js';

const send = (message: WorkerMessage): void => {
  process.send?.(message);
};

const stop = new AbortController();
const hurry = new AbortController();
// Ctrl-C reaches the whole process group; the parent decides, and tells us with 'stop'.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
/** Set once the result is sent: the disconnect that follows is ours, not a lost parent. */
let finished = false;
// A lost parent (SIGKILLed: docs/design.md §2.8) has no use for what this worker would
// measure or send: it ends at once, its request thread and token command with it.
process.on('disconnect', () => {
  stop.abort();
  if (!finished) process.exit(1);
  setTimeout(() => process.exit(1), 5_000).unref();
});

process.on('message', (message: ParentMessage) => {
  if (message.type === 'stop') {
    stop.abort();
    return;
  }
  if (message.type === 'hurry') {
    hurry.abort();
    return;
  }
  const { job } = message;
  for (const secret of job.secrets) registerSecret(secret);
  registerParticipantTokens(job.fixtures.participants.map((participant) => participant.token));
  const total = new MetricSet();
  runDriver({
    job,
    stop,
    hurry: hurry.signal,
    // The run's TLS trust, headers, proxy and HTTP version, and where refused tokens are renewed, ride in the job.
    sink: (interval: MetricSet, startSec, endSec, index) => {
      send({ type: 'interval', index, startSec, endSec, metrics: interval.encode() });
      total.add(interval);
    },
    beforeLoad: () => (job.startAtMs === null ? Promise.resolve() : waitUntil(job.startAtMs, stop.signal)),
  })
    .then((result) =>
      result.failure === null
        ? send({
            type: 'done',
            rssBytes: result.rssBytes,
            durationMs: result.durationMs,
            loadEndMs: result.loadEndMs,
            closedIndex: result.closedIndex,
            counters: total.encodeCounters(),
          })
        : send({ type: 'failed', message: result.failure }),
    )
    .catch((error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }))
    .finally(() => {
      finished = true;
      process.disconnect?.();
    });
});
