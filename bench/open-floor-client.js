// The floor of the open model on this machine, for bench/open-error.js: the least a Node.js
// open-loop generator does. Slot i is due at i / RATE seconds (the pacing coachbench's open
// model uses); a timer wakes for each due slot and sends it with undici's request() on a Pool
// of 512 connections (coachbench's request Agent), reads the answer's body, and takes the
// latency from the slot's intended start. No checks, no histograms, no interval series,
// nothing else in the process. What coachbench's error is beyond this one's is coachbench's;
// what this one shows is Node, undici, the loopback and the scheduler.
// With CB_STREAMS=N it also holds N streams while it sends (bench/lib/bare-streams.js: undici
// and eventsource-parser parsing every frame, opened at CB_STREAM_RAMP per second from the
// uploads' first slot, the fixtures in CB_FIXTURES): on the one thread, or with CB_THREADS=2
// the uploads on a worker thread of their own, as `coachbench run` puts its requests beside
// streams. That is the floor for the same run with streams held.
// It writes [[intended start epoch ms, latency ms], ...] to SAMPLES_OUT and prints
// {"requests": N, "errors": M, "late": L, "startEpochMs": T, "streamsOpen": S, "streamsFailed": F, "frames": E}
//
//   node bench/open-floor-client.js --help   (its arguments, from their declaration below)
import { readFileSync, writeFileSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Agent, Pool } from 'undici';
import { holdStreams } from './lib/bare-streams.js';
import { parseFlags } from './lib/flags.js';

/** The command line's arguments, read on the main thread and handed to the upload thread. */
const args = isMainThread
  ? parseFlags(import.meta.url, {
      positionals: [
        { name: 'url', value: 'URL', means: "the target's base URL" },
        { name: 'path', value: 'PATH', means: 'the path every PATCH goes to' },
        { name: 'rate', value: 'RATE', kind: 'number', means: 'uploads per second' },
        { name: 'seconds', value: 'SECONDS', kind: 'number', means: 'how long to send' },
        { name: 'bodyFile', value: 'BODY_FILE', means: 'the request body (a multipart upload)' },
        { name: 'samplesOut', value: 'SAMPLES_OUT', means: 'where the samples go' },
      ],
      environment: {
        CB_HEADERS: 'the request headers, as JSON',
        CB_STREAMS: 'streams to hold while sending (default 0)',
        CB_STREAM_RAMP: 'streams opened per second (default 1000)',
        CB_FIXTURES: "the fixtures file the streams' participants come from",
        CB_THREADS: '2: the uploads on a worker thread of their own',
      },
    })
  : workerData.args;
const { url, path, rate, seconds, bodyFile, samplesOut } = args;
const STREAMS = Number(process.env.CB_STREAMS ?? 0);
const TWO_THREADS = STREAMS > 0 && process.env.CB_THREADS === '2';
/** Time for a worker thread to start before the first slot (the clock starts after it, as coachbench's does). */
const LEAD_MS = TWO_THREADS ? 300 : 50;

/** Sends the uploads from `startEpochMs` on; resolves with the counts once the last answer is in. */
async function sendUploads(startEpochMs) {
  const totalSlots = Math.floor(rate * seconds);
  const body = readFileSync(bodyFile);
  const headers = JSON.parse(process.env.CB_HEADERS ?? '{}');
  const pool = new Pool(url, { connections: 512, pipelining: 1 });
  const samples = [];
  let requests = 0;
  let errors = 0;
  let late = 0;
  let inFlight = 0;
  let next = 0;

  async function send(intendedMs) {
    inFlight++;
    try {
      const answer = await pool.request({ method: 'PATCH', path, headers, body });
      await answer.body.text();
      samples.push([performance.timeOrigin + intendedMs, performance.now() - intendedMs]);
      requests++;
      if (answer.statusCode < 200 || answer.statusCode > 299) errors++;
    } finally {
      inFlight--;
    }
  }

  // Epoch to this thread's clock: each thread's performance.now() has its own origin.
  const startMs = startEpochMs - performance.timeOrigin;
  const slotMs = (i) => startMs + (i * 1_000) / rate;
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < totalSlots && slotMs(next) <= now) {
        if (now - slotMs(next) > 1) late++;
        send(slotMs(next)).catch(() => errors++);
        next++;
      }
      if (next >= totalSlots) return resolve();
      // Whole milliseconds rounded up, as coachbench's open loop waits (src/engine/open-loop.ts):
      // a fractional wait is cut short and wakes the loop once more before the slot is due.
      setTimeout(tick, Math.max(0, Math.ceil(slotMs(next) - performance.now())));
    };
    setTimeout(tick, Math.max(0, startMs - performance.now()));
  });
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  await pool.close();
  writeFileSync(samplesOut, JSON.stringify(samples));
  return { requests, errors, late, startEpochMs };
}

/** The uploads on a worker thread of their own; resolves with its counts. */
function sendUploadsOnWorker(startEpochMs) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { args, startEpochMs } });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the upload thread exited ${code} before it reported`)));
  });
}

if (!isMainThread) {
  parentPort.postMessage(await sendUploads(workerData.startEpochMs));
} else {
  const startEpochMs = performance.timeOrigin + performance.now() + LEAD_MS;
  let held = null;
  let streamAgent = null;
  if (STREAMS > 0) {
    streamAgent = new Agent({ pipelining: 1 });
    const fixtures = JSON.parse(readFileSync(process.env.CB_FIXTURES, 'utf8'));
    const rampPerSec = Number(process.env.CB_STREAM_RAMP ?? 1_000);
    const beginStreams = () => {
      held = holdStreams({ fixtures, url, streams: STREAMS, rampPerSec, dispatcherOf: () => streamAgent });
    };
    setTimeout(beginStreams, Math.max(0, startEpochMs - performance.timeOrigin - performance.now()));
  }
  const summary = TWO_THREADS ? await sendUploadsOnWorker(startEpochMs) : await sendUploads(startEpochMs);
  const counts = held?.counts ?? { open: 0, failed: 0, frames: 0 };
  console.log(JSON.stringify({ ...summary, streamsOpen: counts.open, streamsFailed: counts.failed, frames: counts.frames }));
  held?.close();
  await streamAgent?.destroy();
  process.exit(0);
}
