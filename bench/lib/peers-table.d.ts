// Types of peers-table.js for its tests (Node runs the .js as it is).
import type { LatencyMedian, LatencyRow } from './peers-latency.js';

export interface Goal {
  goal: string;
  value: number | null;
  limit: string;
  met: boolean | null;
  beside?: string;
}
/** The workloads of peers.json; only the latency block is typed here. */
export interface PeersWorkloads {
  latency?: { ratePerSec: number; rows: readonly LatencyRow[]; medians: readonly LatencyMedian[] };
  [workload: string]: unknown;
}
export function judgeGoals(workloads: PeersWorkloads): Goal[];
/** `tool`'s CPU per request over `other`'s in each repetition both ran, in repetition order. */
export function pairedRatios(
  rows: readonly { tool: string; repetition: number; cpuUsPerRequest?: number | null; failed?: string }[],
  tool: string,
  other: string,
): number[];
