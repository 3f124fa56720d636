/**
 * Requests beside streams run on their own thread (docs/design.md §6): a stalled stream loop
 * (garbage collections, parsing at thousands of streams) must not delay the timers that pace
 * requests or the callbacks that time them. Proven by stalling this process's main loop, which
 * holds the streams, against `coachbench serve` in a process of its own: the uploads,
 * paced and timed on the request thread, neither fall behind nor read the stalls.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduledSlotsName } from '../../src/metrics/throughput-extra-names.js';
import { quickProfile } from '../support/profiles.js';
import { runProfile } from '../support/run-helpers.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';

let serve: ServeProcess;

beforeAll(async () => {
  // `coachbench serve` in a process of its own: the target must not share the loop this test stalls.
  const dir = await mkdtemp(join(tmpdir(), 'coachbench-request-thread-'));
  serve = await startServe(join(dir, 'fixtures.json'), ['--participants', '30', '--sessions', '2', '--keepalive', '500ms']);
});
afterAll(() => serve?.stop());

// Stalls far longer than a loaded CI machine's own scheduling noise (the request thread's loop
// delay and latencies reach tens of ms under parallel test files), so the bounds at half a
// stall separate a thread that reads the stalls from one that does not with room to spare.
const STALL_MS = 300;

describe('requests on their own thread beside streams', () => {
  it('keep their pace and their latency while the stream loop stalls', async () => {
    // The main loop (streams, probes, and this test) is busy two fifths of the time, a stall at a time.
    const blocker = setInterval(() => {
      const until = performance.now() + STALL_MS;
      while (performance.now() < until) {
        /* the stream loop is busy */
      }
    }, STALL_MS * 2.5);
    try {
      const { report } = await runProfile(
        quickProfile({
          duration: '5s',
          generator: { maxEventLoopDelayP99: `${STALL_MS / 2}ms` },
          photoUpload: { enabled: true, model: 'open', ratePerSec: 40, maxInFlight: 64, imageSizes: ['2KiB'], overrideShare: 0 },
          tagLink: { enabled: true, model: 'open', ratePerSec: 20, maxInFlight: 64 },
        }),
        { target: serve.url, fixtures: serve.fixtures, expectKeepalive: '500ms' },
      );
      const { generator } = report;
      // The stream loop read its stalls, and generator.healthy says the streams measured them.
      expect(generator.eventLoopDelayMs.p99).toBeGreaterThan(STALL_MS / 2);
      expect(report.checks.find((check) => check.id === 'generator.healthy')?.status).toBe('fail');
      // The request thread did not stall.
      expect(generator.requestLoopDelayMs, 'the run had no request thread').toBeDefined();
      expect(generator.requestLoopDelayMs!.p99).toBeLessThan(STALL_MS / 2);
      const photo = report.scenarios.photoUpload!;
      const tags = report.scenarios.tagLink!;
      // Every slot of the schedule started (its span is the run's once the uploads are prepared, shorter on a loaded machine).
      const scheduled = report.metrics.counters[scheduledSlotsName('photoUpload')]!;
      expect(scheduled).toBeGreaterThan(150);
      expect(scheduled - photo.requests).toBeLessThanOrEqual(2);
      expect(photo.droppedSlots).toBe(0);
      // Paced on time: with two fifths of the main loop's time blocked, two in five slots paced
      // there would start late, far more than a loaded machine's own noise makes late.
      expect(photo.lateSlots).toBeLessThan(photo.requests * 0.2);
      // Timed off the stalled loop: a request timed on it would read up to a stall more, two in five of them.
      expect(photo.latencyMs.p90).toBeLessThan(STALL_MS / 2);
      expect(tags.latencyMs.p90).toBeLessThan(STALL_MS / 2);
      expect(photo.errors + tags.errors).toBe(0);
      // The thread's intervals were merged with the main loop's: every request is in the time series.
      const seriesRequests = report.timeseries.reduce((sum, point) => sum + point.requests, 0);
      expect(seriesRequests).toBe(photo.requests + tags.requests);
    } finally {
      clearInterval(blocker);
    }
  });

  it('that dies mid-run fails the run and says so, while the streams run to the end', async () => {
    // The fault: the thread ends 1.6 s after it was told to start, as an out-of-memory thread
    // would; its real Worker is terminated from outside, nothing else is touched.
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: unknown) {
      if ((message as { type?: string }).type === 'go') setTimeout(() => void this.terminate(), 1_600);
      return post.call(this, message);
    };
    try {
      const { report, exitCode } = await runProfile(
        quickProfile({
          duration: '3s',
          photoUpload: { enabled: true, model: 'open', ratePerSec: 40, imageSizes: ['2KiB'], overrideShare: 0 },
        }),
        { target: serve.url, fixtures: serve.fixtures, expectKeepalive: '500ms' },
      );
      expect(exitCode).toBe(1);
      expect(report.verdict).toBe('fail');
      expect(report.warnings).toContain('the request thread failed: the request thread exited before it finished');
      // The uploads stopped with the thread (3 s would be 120); what it had reported is kept.
      const photo = report.scenarios.photoUpload!;
      expect(photo.requests).toBeGreaterThanOrEqual(30);
      expect(photo.requests).toBeLessThan(100);
      // The stream loop ran to the end.
      expect(report.scenarios.chatStreams!.mainStreams.peakConcurrent).toBe(24);
      expect(report.durationMs).toBeGreaterThanOrEqual(2_900);
    } finally {
      Worker.prototype.postMessage = post;
    }
  });

  it('is not started for requests alone', async () => {
    const { report } = await runProfile(
      quickProfile({
        duration: '1500ms',
        chatStreams: { enabled: false },
        photoUpload: { enabled: true, model: 'open', ratePerSec: 20, imageSizes: ['2KiB'] },
      }),
      { target: serve.url, fixtures: serve.fixtures, expectKeepalive: '500ms' },
    );
    expect(report.scenarios.photoUpload!.requests).toBeGreaterThan(20);
    expect(report.generator.requestLoopDelayMs).toBeUndefined();
  });
});
