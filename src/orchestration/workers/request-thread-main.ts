/**
 * Entry point of a driver process's request thread (docs/design.md §6): photo upload and tag
 * link paced, sent and timed on a loop of their own, away from the garbage collections and
 * parsing of thousands of streams on the main loop. It prepares its scenarios, says `ready`,
 * starts on `go` and sends every interval snapshot, HDR-encoded, to the main loop, which
 * merges them with its own. A `stop` ends it early.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { scenariosFor } from '../../drivers/scenarios.js';
import { prepareScenarios, runScenarios } from '../../engine/run-scenarios.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { registerParticipantTokens, registerSecret } from '../../util/redact.js';
import type { RequestThreadMessage, ThreadControl, WorkerJob } from './messages.js';

if (!parentPort) throw new Error('request-thread-main runs only as a worker thread');
const port: MessagePort = parentPort;
const job = workerData as WorkerJob;
for (const secret of job.secrets) registerSecret(secret);
registerParticipantTokens(job.fixtures.participants.map((participant) => participant.token));

const send = (message: RequestThreadMessage): void => port.postMessage(message);
const stop = new AbortController();
const hurry = new AbortController();
const scenarios = scenariosFor(job.profile, undefined, 'requests');

/** Runs the load on the clock whose zero the main loop chose (its epoch, read on this thread's clock). */
function run(zeroEpochMs: number): void {
  runScenarios({
    scenarios,
    profile: job.profile,
    targetUrl: job.targetUrl,
    fixtures: job.fixtures,
    keepAlive: job.keepAlive,
    transport: job.transport,
    credentials: job.credentials,
    arrivalStream: job.arrivalStream,
    stop,
    hurry: hurry.signal,
    loop: 'requestThread',
    zeroMs: zeroEpochMs - performance.timeOrigin,
    sink: (interval: MetricSet, startSec, endSec, index) => send({ type: 'interval', index, startSec, endSec, metrics: interval.encode() }),
  })
    .then((result) => send({ type: 'done', durationMs: result.durationMs }))
    .catch((error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }))
    .finally(() => port.close());
}

port.on('message', (message: ThreadControl) => {
  if (message.type === 'go') run(message.zeroEpochMs);
  else if (message.type === 'hurry') hurry.abort();
  else stop.abort();
});

prepareScenarios(scenarios, job.profile)
  .then(() => send({ type: 'ready' }))
  .catch((error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }));
