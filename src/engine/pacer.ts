/**
 * Pure pacing (vegeta lib/pacer.go style): the i-th slot's intended time is a function of i
 * alone, so a late scheduler never shifts later slots (k6 constant-arrival-rate). No timers,
 * no clock: callers pass elapsed time in.
 */
export interface Pacer {
  /** Total slots in the schedule. */
  readonly totalSlots: number;
  /** Intended start of slot `i`, in ms since the schedule began. */
  slotTimeMs(i: number): number;
  /** How many slots are due (intended time <= elapsedMs), capped at totalSlots. */
  dueBy(elapsedMs: number): number;
}

export interface LinearPacerOptions {
  startRatePerSec: number;
  /** Rate at durationMs; equal to startRatePerSec for a constant rate. */
  endRatePerSec: number;
  durationMs: number;
}

/**
 * A constant or linearly ramping arrival rate. Cumulative arrivals by time t (seconds) are
 * N(t) = r0·t + (r1 − r0)·t² / 2T; slot i is due when N(t) reaches i, so slot 0 is at t = 0.
 */
export function linearPacer({ startRatePerSec: r0, endRatePerSec: r1, durationMs }: LinearPacerOptions): Pacer {
  const T = durationMs / 1_000;
  const a = T > 0 ? (r1 - r0) / (2 * T) : 0;
  const arrivals = (tSec: number): number => r0 * tSec + a * tSec * tSec;
  const total = T > 0 && r0 + r1 > 0 ? Math.max(0, Math.ceil(arrivals(T) - 1e-9)) : 0;
  return {
    totalSlots: total,
    slotTimeMs(i: number): number {
      if (i < 0 || i >= total) return Infinity;
      if (i === 0) return 0;
      if (Math.abs(a) < 1e-12) return (i / r0) * 1_000;
      // Positive root of a·t² + r0·t − i = 0, written to stay stable when a is tiny or r0 is 0.
      const disc = r0 * r0 + 4 * a * i;
      return ((2 * i) / (r0 + Math.sqrt(Math.max(0, disc)))) * 1_000;
    },
    dueBy(elapsedMs: number): number {
      if (elapsedMs < 0 || total === 0) return 0;
      const t = Math.min(elapsedMs, durationMs) / 1_000;
      return Math.min(total, Math.floor(arrivals(t) + 1e-9) + 1);
    },
  };
}

/** One piece of a piecewise rate: linear from `from` to `to` req/s over `durationMs`, starting `offsetMs` into the schedule. */
export interface RateSegment {
  offsetMs: number;
  durationMs: number;
  from: number;
  to: number;
}

/** One piece of a piecewise schedule: a linear pacer that starts `offsetMs` into the run. */
interface PacerSegment {
  offsetMs: number;
  durationMs: number;
  firstSlot: number;
  pacer: Pacer;
}

/** A rate stage (docs/design.md §2.11): `from` req/s at startMs to `to` at endMs. */
export interface RateStage {
  startMs: number;
  endMs: number;
  from: number;
  to: number;
}

/**
 * The rate of a list of stages as linear segments, cut at `durationMs`, holding the last
 * rate to `durationMs`; zero-length stages (steps) leave no segment, the rate changes there.
 */
export function rateSegments(stages: readonly RateStage[], durationMs: number): RateSegment[] {
  const pieces = stages.filter((stage) => stage.endMs > stage.startMs && stage.startMs < durationMs);
  const last = stages.at(-1);
  if (last && last.endMs < durationMs) pieces.push({ startMs: last.endMs, endMs: durationMs, from: last.to, to: last.to });
  return pieces.map((stage) => {
    const segmentMs = Math.min(stage.endMs, durationMs) - stage.startMs;
    // A stage cut short by the run's end stops at the rate it had reached.
    const endRate = stage.from + ((stage.to - stage.from) * segmentMs) / (stage.endMs - stage.startMs);
    return { offsetMs: stage.startMs, durationMs: segmentMs, from: stage.from, to: endRate };
  });
}

/**
 * Stages laid end to end, each a linear pacer, holding the last rate until `durationMs`.
 * Slot times stay a function of the slot alone (no drift from late ticks); a step (a
 * zero-length stage) changes the rate at that instant.
 */
export function stagedPacer(stages: readonly RateStage[], durationMs: number): Pacer {
  const segments: PacerSegment[] = [];
  let firstSlot = 0;
  for (const piece of rateSegments(stages, durationMs)) {
    const pacer = linearPacer({ startRatePerSec: piece.from, endRatePerSec: piece.to, durationMs: piece.durationMs });
    segments.push({ offsetMs: piece.offsetMs, durationMs: piece.durationMs, firstSlot, pacer });
    firstSlot += pacer.totalSlots;
  }
  const totalSlots = firstSlot;
  const segmentOfSlot = (i: number): PacerSegment | undefined => {
    let found: PacerSegment | undefined;
    for (const segment of segments) {
      if (segment.firstSlot > i) break;
      found = segment;
    }
    return found;
  };
  return {
    totalSlots,
    slotTimeMs(i: number): number {
      if (i < 0 || i >= totalSlots) return Infinity;
      const segment = segmentOfSlot(i)!;
      return segment.offsetMs + segment.pacer.slotTimeMs(i - segment.firstSlot);
    },
    dueBy(elapsedMs: number): number {
      if (elapsedMs < 0) return 0;
      let due = 0;
      for (const segment of segments) {
        if (elapsedMs < segment.offsetMs) break;
        due = segment.firstSlot + segment.pacer.dueBy(elapsedMs - segment.offsetMs);
      }
      return due;
    },
  };
}
