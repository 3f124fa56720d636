/**
 * The pacer of one open-model schedule: uniform (slot i at the i-th expected arrival, the
 * default) or Poisson (poisson-pacer.ts), over a constant rate, a linear ramp or stages.
 * Each Poisson schedule draws from its own stream of the run's seed: one per process (a
 * worker of a shard) and workload (docs/design.md §6).
 */
import type { ArrivalProcess } from '../contract/profile/profile.js';
import { randomStream } from '../util/random-stream.js';
import { linearPacer, type Pacer, type RateSegment, type RateStage, rateSegments, stagedPacer } from './pacer.js';
import { poissonPacer } from './poisson-pacer.js';

/** Which schedule a stream is for: part of its key, so two workloads of one process never share one. */
export const ARRIVAL_WORKLOADS = { photoUpload: 1, tagLink: 2, chatMessages: 3 } as const;
export type ArrivalWorkload = keyof typeof ARRIVAL_WORKLOADS;

export interface SchedulePlan {
  arrivals: ArrivalProcess;
  /** Stages as times in the schedule; null: startRatePerSec to endRatePerSec over durationMs. */
  stages: readonly RateStage[] | null;
  startRatePerSec: number;
  endRatePerSec: number;
  durationMs: number;
}

/** Whose random stream a Poisson schedule draws from. */
export interface ArrivalStream {
  /** The run's seed (`--seed`, profile `seed`). */
  seed: number;
  /** This process's index in the run (shard × workers). */
  stream: number;
  /** A built-in workload, or a number of its own (a request kind's, docs/design.md §2.15). */
  workload: ArrivalWorkload | number;
}

export function schedulePacer(plan: SchedulePlan, stream: ArrivalStream): Pacer {
  if (plan.arrivals === 'uniform') {
    return plan.stages
      ? stagedPacer(plan.stages, plan.durationMs)
      : linearPacer({ startRatePerSec: plan.startRatePerSec, endRatePerSec: plan.endRatePerSec, durationMs: plan.durationMs });
  }
  const segments: RateSegment[] = plan.stages
    ? rateSegments(plan.stages, plan.durationMs)
    : [{ offsetMs: 0, durationMs: Math.max(0, plan.durationMs), from: plan.startRatePerSec, to: plan.endRatePerSec }];
  return poissonPacer(segments, () =>
    randomStream(stream.seed, stream.stream, typeof stream.workload === 'number' ? stream.workload : ARRIVAL_WORKLOADS[stream.workload]),
  );
}
