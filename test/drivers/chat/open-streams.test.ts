import { describe, expect, it } from 'vitest';
import { OpenStreams } from '../../../src/drivers/chat/open-streams.js';
import { ROLE_NAMES } from '../../../src/drivers/chat/role-names.js';
import { SseStream } from '../../../src/engine/sse-reader.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { CHAT } from '../../../src/metrics/names.js';

describe('OpenStreams', () => {
  it('an interval whose streams close before its first sweep still peaks at what was open in it', () => {
    const metrics = new MetricSet();
    const open = new OpenStreams(metrics);
    open.start(0);
    const streams = [new SseStream('chat', 0, 's1'), new SseStream('main', 0, null), new SseStream('chat', 1, 's2'), new SseStream('main', 1, null)];
    for (const stream of streams) open.add(stream, 0);
    // The interval closes (the recorder resets the set it counts into), then the drain closes every stream.
    metrics.reset();
    for (const stream of streams) open.remove(stream, 100);
    open.publishPeaks(['chat', 'main']);
    expect(metrics.peakOf(ROLE_NAMES.chat.open)).toBe(2);
    expect(metrics.peakOf(ROLE_NAMES.main.open)).toBe(2);
    // What they held in it: four streams for 100 ms.
    expect(metrics.count(CHAT.heldStreamUs)).toBe(4 * 100 * 1_000);
    // The next interval holds none.
    metrics.reset();
    open.publishPeaks(['chat', 'main']);
    expect(metrics.peakOf(ROLE_NAMES.chat.open)).toBe(0);
  });
});
