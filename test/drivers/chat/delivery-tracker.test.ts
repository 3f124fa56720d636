import { describe, expect, it } from 'vitest';
import { DeliveryTracker } from '../../../src/drivers/chat/delivery-tracker.js';
import { SseStream, StreamState } from '../../../src/engine/sse-reader.js';

function openStream(session: string): SseStream {
  const stream = new SseStream('chat', 0, session);
  stream.state = StreamState.Open;
  return stream;
}

describe('DeliveryTracker', () => {
  it('measures latency from the intended send time and resolves complete messages at once', () => {
    const tracker = new DeliveryTracker(1_000);
    const a = openStream('s1');
    const seq = tracker.register('s1', 100, [a]);
    expect(tracker.receipt(seq, a, 142)).toEqual({ outcome: 'first', latencyMs: 42, traceId: null, spanId: null });
    expect(tracker.sweep(150)).toEqual({ expected: 1, received: 1, missing: 0 });
    expect(tracker.unresolved).toBe(0);
  });

  it('counts a second arrival on the same stream as a duplicate, even after resolution', () => {
    const tracker = new DeliveryTracker(1_000);
    const a = openStream('s1');
    const seq = tracker.register('s1', 0, [a]);
    tracker.receipt(seq, a, 5);
    tracker.sweep(10);
    expect(tracker.receipt(seq, a, 20)).toEqual({ outcome: 'duplicate' });
  });

  it('counts a stream open for the whole window that never received as missing', () => {
    const tracker = new DeliveryTracker(1_000);
    const a = openStream('s1');
    const b = openStream('s1');
    const seq = tracker.register('s1', 0, [a, b]);
    tracker.receipt(seq, a, 5);
    expect(tracker.sweep(500)).toEqual({ expected: 0, received: 0, missing: 0 });
    expect(tracker.sweep(1_000)).toEqual({ expected: 2, received: 1, missing: 1 });
  });

  it('excludes a stream that closed within the window without receiving', () => {
    const tracker = new DeliveryTracker(1_000);
    const a = openStream('s1');
    tracker.register('s1', 0, [a]);
    a.state = StreamState.Closed;
    expect(tracker.sweep(1_000)).toEqual({ expected: 0, received: 0, missing: 0 });
  });

  it('ignores streams that were not open at post time and unknown sequence numbers', () => {
    const tracker = new DeliveryTracker(1_000);
    const connecting = new SseStream('chat', 0, 's1');
    const seq = tracker.register('s1', 0, [connecting]);
    expect(tracker.receipt(seq, connecting, 3)).toEqual({ outcome: 'unexpected' });
    expect(tracker.receipt(999, connecting, 3)).toEqual({ outcome: 'unexpected' });
  });

  it('a forced sweep at the end of a run does not count windows that have not passed as missing', () => {
    const tracker = new DeliveryTracker(1_000);
    const a = openStream('s1');
    tracker.register('s1', 0, [a]);
    expect(tracker.sweep(200, true)).toEqual({ expected: 0, received: 0, missing: 0 });
    expect(tracker.unresolved).toBe(0);
  });
});
