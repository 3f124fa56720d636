import { describe, expect, it } from 'vitest';
import { recordMs } from '../../src/metrics/histogram.js';
import { MAX_SAMPLE_CHARS, MetricSet } from '../../src/metrics/metric-set.js';
import { registerParticipantTokens } from '../../src/util/redact.js';

function shard(requests: number, open: number, activeMs: number, latencies: number[]): MetricSet {
  const set = new MetricSet();
  set.inc('photoUpload.requests', requests);
  set.peak('chat.open', open);
  set.peak('photoUpload.activeMs', activeMs);
  for (const ms of latencies) recordMs(set.histogram('chat.eventLatencyUs'), ms);
  set.sample('chat', `shard with ${open} streams`);
  return set;
}

describe('MetricSet', () => {
  it('merges side-by-side processes exactly: counters and histograms add, gauges add, time extents take the max', () => {
    const total = new MetricSet();
    total.addEncoded(shard(100, 40, 10_000, [1, 2, 3]).encode(), true);
    total.addEncoded(shard(50, 60, 9_800, [4, 5]).encode(), true);
    expect(total.count('photoUpload.requests')).toBe(150);
    expect(total.peakOf('chat.open')).toBe(100);
    expect(total.peakOf('photoUpload.activeMs')).toBe(10_000);
    const histogram = total.histogram('chat.eventLatencyUs');
    expect(histogram.totalCount).toBe(5);
    expect(histogram.maxValue).toBeGreaterThanOrEqual(4_995);
    expect(total.samplesOf('chat')).toEqual(['shard with 40 streams', 'shard with 60 streams']);
  });

  it('rolls intervals into a total over time: peaks take the max', () => {
    const total = new MetricSet();
    total.add(shard(1, 40, 1_000, [1]));
    total.add(shard(1, 30, 2_000, [1]));
    expect(total.peakOf('chat.open')).toBe(40);
    expect(total.count('photoUpload.requests')).toBe(2);
  });

  it('keeps at most five samples per key and resets to empty', () => {
    const set = new MetricSet();
    for (let i = 0; i < 9; i++) set.sample('k', `s${i}`);
    expect(set.samplesOf('k')).toHaveLength(5);
    set.inc('x');
    recordMs(set.histogram('h'), 3);
    set.reset();
    expect(set.count('x')).toBe(0);
    expect(set.histogram('h').totalCount).toBe(0);
    expect(set.samplesOf('k')).toEqual([]);
  });

  it('masks every sample it keeps, and samples from workers again as they merge', () => {
    registerParticipantTokens(['metric/set+token=']);
    const set = new MetricSet();
    set.sample('k', 'answer echoed metric/set+token= back');
    expect(set.samplesOf('k')).toEqual(['answer echoed *** back']);
    const parent = new MetricSet();
    parent.addEncoded({ ...set.encode(), samples: { k: ['from a worker that did not know it: xmetric/set+token=y'] } });
    expect(parent.samplesOf('k')).toEqual(['from a worker that did not know it: x***y']);
  });

  it('cuts a long sample to MAX_SAMPLE_CHARS after masking it, never inside a surrogate pair', () => {
    const token = 'cut/sample+token=0123456789';
    registerParticipantTokens([token]);
    const set = new MetricSet();
    // The token straddles the cut: masked first, it cannot leave a piece of itself behind.
    set.sample('long', `${'a'.repeat(MAX_SAMPLE_CHARS - 10)}${token}${'b'.repeat(100_000)}`);
    const [kept] = set.samplesOf('long');
    expect(kept).toBe(`${'a'.repeat(MAX_SAMPLE_CHARS - 10)}***${'b'.repeat(6)}…`);
    expect(kept!.length).toBe(MAX_SAMPLE_CHARS);
    // An astral character across the cut is dropped whole, not halved.
    set.sample('astral', `${'a'.repeat(MAX_SAMPLE_CHARS - 2)}😀${'b'.repeat(10)}`);
    expect(set.samplesOf('astral')).toEqual([`${'a'.repeat(MAX_SAMPLE_CHARS - 2)}…`]);
    // Merged again (a worker's sample reaching its parent), a cut sample stays as it is.
    const parent = new MetricSet();
    parent.add(set);
    expect(parent.samplesOf('long')).toEqual([kept]);
  });
});
