// Types of gc-trace.js for its tests (Node runs the .js as it is).
export interface IsolateGcSummary {
  isolate: string;
  spanSec: number;
  scavenges: number;
  minorMarkSweeps: number;
  markCompacts: number;
  pauseMs: { p50: number; p99: number; max: number };
  pausesOver10Ms: number;
  pausedShare: number;
  promotedMiBPerSec: number;
  markCompactList: { atMs: number; pauseMs: number; backgroundMarkMs: number; liveMiB: number }[];
}
export function gcSummary(output: string, options?: { fromMs?: number }): IsolateGcSummary[];
