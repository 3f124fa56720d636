/**
 * Poisson arrivals (docs/design.md §6): a non-homogeneous Poisson process whose rate follows
 * the same piecewise-linear plan as the uniform pacer. By time rescaling, arrivals are a
 * unit-rate process in expected-arrivals space, mapped back through the inverse of the
 * cumulative rate Λ(t); so the count in any window has the plan's expected count, and the
 * gaps are exponential at the instantaneous rate.
 *
 * The whole schedule is fixed by the seeded stream before the first slot: the number of
 * arrivals is drawn first (Poisson of mean Λ(T)), then their positions are the ordered
 * uniforms on [0, Λ(T)), generated in ascending order one at a time (each is the minimum of
 * those left), so `totalSlots` is known at once and memory stays small however long the run.
 * Slot times are a function of the slot and the seed alone, as with the uniform pacer;
 * reading them in order (what runOpenLoop does) costs O(1) each, reading backwards replays the stream.
 */
import type { Uniform } from '../util/random-variates.js';
import { poisson } from '../util/random-variates.js';
import type { Pacer, RateSegment } from './pacer.js';

interface CumulativeSegment extends RateSegment {
  /** Expected arrivals before the segment. */
  before: number;
  /** Expected arrivals by its end. */
  after: number;
}

/** Λ(t) for the segments, and its inverse. */
function cumulativeOf(segments: readonly RateSegment[]): CumulativeSegment[] {
  let before = 0;
  return segments.map((segment) => {
    const after = before + (((segment.from + segment.to) / 2) * segment.durationMs) / 1_000;
    const cumulative = { ...segment, before, after };
    before = after;
    return cumulative;
  });
}

/** Time (ms) within `segment` at which `x` expected arrivals have come since its start. */
function timeWithin(segment: CumulativeSegment, x: number): number {
  const seconds = segment.durationMs / 1_000;
  const r0 = segment.from;
  const a = (segment.to - r0) / (2 * seconds);
  // Positive root of a·t² + r0·t − x = 0, in the form that stays stable when a is tiny or r0 is 0.
  const t = Math.abs(a) < 1e-12 ? x / r0 : (2 * x) / (r0 + Math.sqrt(Math.max(0, r0 * r0 + 4 * a * x)));
  return segment.offsetMs + Math.min(segment.durationMs, t * 1_000);
}

/** Slots kept behind the lowest one asked for, so that a caller a little behind is not replayed. */
const KEEP_BEHIND = 1_024;

/**
 * A Poisson pacer for the rate `segments`; `newStream` returns the same seeded stream each
 * time it is called (a replay starts from it).
 */
export function poissonPacer(segments: readonly RateSegment[], newStream: () => Uniform): Pacer {
  const cumulative = cumulativeOf(segments).filter((segment) => segment.after > segment.before);
  const expected = cumulative.at(-1)?.after ?? 0;
  let random = newStream();
  const totalSlots = poisson(expected, random);

  // Generator state: the slots [base, base + times.length) are in `times`.
  let times: number[] = [];
  let base = 0;
  let logRemaining = 0;
  let segmentIndex = 0;

  const restart = (): void => {
    random = newStream();
    poisson(expected, random);
    times = [];
    base = 0;
    logRemaining = 0;
    segmentIndex = 0;
  };

  const generateOne = (): void => {
    const i = base + times.length;
    // The smallest of the totalSlots − i uniforms left above the previous one.
    logRemaining += Math.log(1 - random()) / (totalSlots - i);
    const s = expected * -Math.expm1(logRemaining);
    while (segmentIndex < cumulative.length - 1 && s >= cumulative[segmentIndex]!.after) segmentIndex++;
    const segment = cumulative[segmentIndex]!;
    times.push(timeWithin(segment, Math.max(0, s - segment.before)));
  };

  const generated = (): number => base + times.length;

  /** Drops what lies more than KEEP_BEHIND before slot `lowest`. */
  const forget = (lowest: number): void => {
    const drop = lowest - KEEP_BEHIND - base;
    if (drop > KEEP_BEHIND) {
      times = times.slice(drop);
      base += drop;
    }
  };

  return {
    totalSlots,
    slotTimeMs(i: number): number {
      if (i < 0 || i >= totalSlots) return Infinity;
      if (i < base) restart();
      while (generated() <= i) generateOne();
      forget(i);
      return times[i - base]!;
    },
    dueBy(elapsedMs: number): number {
      if (elapsedMs < 0 || totalSlots === 0) return 0;
      if (base > 0 && times.length > 0 && times[0]! > elapsedMs) restart();
      while (generated() < totalSlots && (times.length === 0 || times.at(-1)! <= elapsedMs)) generateOne();
      // First buffered slot later than elapsedMs (times ascend).
      let low = 0;
      let high = times.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (times[mid]! <= elapsedMs) low = mid + 1;
        else high = mid;
      }
      return base + low;
    },
  };
}
