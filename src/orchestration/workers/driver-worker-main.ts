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
// Ctrl-C reaches the whole process group; the parent decides, and tells us with 'stop'.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
process.on('disconnect', () => {
  stop.abort();
  setTimeout(() => process.exit(1), 5_000).unref();
});

process.on('message', (message: ParentMessage) => {
  if (message.type === 'stop') {
    stop.abort();
    return;
  }
  const { job } = message;
  for (const secret of job.secrets) registerSecret(secret);
  registerParticipantTokens(job.fixtures.participants.map((participant) => participant.token));
  const total = new MetricSet();
  runDriver({
    job,
    stop,
    // The run's TLS trust, headers, proxy and HTTP version, and where refused tokens are renewed, ride in the job.
    sink: (interval: MetricSet, startSec, endSec, index) => {
      send({ type: 'interval', index, startSec, endSec, metrics: interval.encode() });
      total.add(interval);
    },
    beforeLoad: () => (job.startAtMs === null ? Promise.resolve() : waitUntil(job.startAtMs, stop.signal)),
  })
    .then((result) =>
      result.failure === null
        ? send({ type: 'done', rssBytes: result.rssBytes, durationMs: result.durationMs, counters: total.encodeCounters() })
        : send({ type: 'failed', message: result.failure }),
    )
    .catch((error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }))
    .finally(() => process.disconnect?.());
});
