/**
 * `run --otlp URL` against a small OTLP/HTTP receiver (test/support/otlp-receiver.ts, node:http on 127.0.0.1
 * decoding the exporter's JSON bodies): during a `--workers 2` run the receiver sees the
 * exported metric names pushed every second from the one parent, and the last push holds
 * exactly the counts of report.json (the output flushes once more at the end).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attribute, type DataPoint, metricsOf, type OtlpReceiver, startOtlpReceiver } from '../../support/otlp-receiver.js';
import { quickProfile } from '../../support/profiles.js';
import { runProfile } from '../../support/run-helpers.js';

let receiver: OtlpReceiver;
let url = '';
let exports: OtlpReceiver['exports'] = [];

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  url = receiver.url;
  exports = receiver.exports;
});

afterAll(async () => {
  delete process.env.OTEL_METRIC_EXPORT_INTERVAL;
  await receiver.close();
});

const value = (point: DataPoint): number => Number(point.asDouble ?? point.asInt ?? Number.NaN);

describe('run --otlp', () => {
  it('pushes the exported metrics as OTLP/HTTP JSON, the last push holding report.json’s counts', async () => {
    process.env.OTEL_METRIC_EXPORT_INTERVAL = '1000';
    // A bare origin gets the OTLP metrics path.
    // Two driver workers: one push stream from the parent, holding both workers' merged intervals.
    const { report } = await runProfile(quickProfile({ duration: '5s' }), { otlp: url, workers: '2' });
    expect(report.workers).toHaveLength(2);
    expect(exports.length).toBeGreaterThanOrEqual(3);
    expect(exports[0]?.contentType).toBe('application/json');

    const last = metricsOf(exports.at(-1)!.body);
    const names = new Set(last.map((m) => m.name));
    for (const name of ['coachbench_events', 'coachbench_open_streams', 'coachbench_keepalive_gap_seconds', 'coachbench_check_status', 'coachbench_run_info']) {
      expect(names, name).toContain(name);
    }

    const events = last.find((m) => m.name === 'coachbench_events');
    expect(events?.sum?.isMonotonic).toBe(true);
    const chat = report.scenarios.chatStreams!;
    const keepAlives = events!.sum!.dataPoints.filter((p) => attribute(p, 'type') === 'KEEP_ALIVE');
    const pushedKeepAlives = keepAlives.reduce((n, p) => n + value(p), 0);
    expect(pushedKeepAlives).toBeGreaterThan(0);
    expect(pushedKeepAlives).toBe((chat.events.KEEP_ALIVE ?? 0) + (chat.mainStreams.events.KEEP_ALIVE ?? 0));
    const pushedEvents = events!.sum!.dataPoints.reduce((n, p) => n + value(p), 0);
    const sum = (record: Record<string, number>): number => Object.values(record).reduce((a, b) => a + b, 0);
    expect(pushedEvents).toBe(sum(chat.events) + sum(chat.mainStreams.events));

    // Stream-seconds held, in seconds: report.json's time series rounds each point to the ms.
    const held = last.find((m) => m.name === 'coachbench_stream_held_seconds');
    expect(held?.unit).toBe('s');
    expect(held?.sum?.isMonotonic).toBe(true);
    const pushedHeld = held!.sum!.dataPoints.reduce((n, p) => n + value(p), 0);
    const reportHeld = report.timeseries.reduce((n, point) => n + (point.streamSeconds ?? 0), 0);
    expect(reportHeld).toBeGreaterThan(10);
    expect(Math.abs(pushedHeld - reportHeld)).toBeLessThan(0.001 * report.timeseries.length);

    const gap = last.find((m) => m.name === 'coachbench_keepalive_gap_seconds');
    expect(gap?.unit).toBe('s');
    expect(Number(gap?.histogram?.dataPoints[0]?.count)).toBe(chat.keepAliveGapMs.count);

    // A gauge is the last interval's: the final push may come after every stream closed (0 is
    // then the truth), so the live value is looked for in the pushes made while streams were open.
    const openChat = exports.map((push) =>
      metricsOf(push.body)
        .find((m) => m.name === 'coachbench_open_streams')
        ?.gauge?.dataPoints.find((p) => attribute(p, 'stream') === 'chat'),
    );
    const livePeak = Math.max(...openChat.map((point) => (point ? value(point) : 0)));
    expect(livePeak).toBeGreaterThan(0);
    expect(livePeak).toBeLessThanOrEqual(report.scenarios.chatStreams!.peakConcurrent);
    const streamOpen = last
      .find((m) => m.name === 'coachbench_check_status')
      ?.gauge?.dataPoints.find((p) => attribute(p, 'check') === 'stream.open' && attribute(p, 'status') === report.checks[0]?.status);
    expect(report.checks[0]?.id).toBe('stream.open');
    expect(streamOpen && value(streamOpen)).toBe(1);
  }, 30_000);
});
