// Types of peers-table.js for its tests (Node runs the .js as it is).
import type { LatencyMedian, LatencyRow } from './peers-latency.js';

export interface Goal {
  goal: string;
  value: number | null;
  limit: string;
  /** From the interval of the median where the goal has two or more repetitions, else from the value. */
  verdict: 'met' | 'not met' | 'within its spread' | 'not measured';
  /** Where the median of the repetitions' measures lies (bench/lib/median.js medianInterval). */
  spread?: { low: number; high: number; confidence: number };
  beside?: string;
}
/** The workloads of peers.json; only the latency block is typed here. */
export interface PeersWorkloads {
  latency?: { ratePerSec: number; rows: readonly LatencyRow[]; medians: readonly LatencyMedian[] };
  [workload: string]: unknown;
}
export function judgeGoals(workloads: PeersWorkloads): Goal[];
/** `tool`'s `field` (CPU per request unless said) over `other`'s in each repetition both ran, in repetition order. */
export function pairedRatios(
  rows: readonly ({ tool: string; repetition: number; failed?: string } & Record<string, unknown>)[],
  tool: string,
  other: string,
  field?: string,
): number[];
