/**
 * Histories of whole reports for the trend tests: makeReport (real HDR histograms of seeded
 * samples) one night apart, the last nights optionally with the target's latency raised.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '../../src/contract/report.js';
import type { HistoryEntry } from '../../src/report/trend/read-history.js';
import { makeReport } from './make-report.js';

export const THRESHOLD = 'tagLink.latencyMs.p99 < 500';

export interface NightOptions {
  /** Added to every target latency on this night (ms). */
  shiftMs?: number;
  profile?: string;
  labels?: Record<string, string>;
}

/** Night `n` (1-based) of a nightly history. */
export function night(n: number, options: NightOptions = {}): Report {
  const report = makeReport({
    seed: 1_000 + n,
    latencyShiftMs: options.shiftMs ?? 0,
    thresholds: [{ expression: THRESHOLD, status: 'pass', observed: 40 }],
  });
  const start = Date.UTC(2026, 10, 1, 2) + n * 86_400_000;
  report.runId = `nightly-${String(n).padStart(3, '0')}`;
  report.startedAt = new Date(start).toISOString();
  report.endedAt = new Date(start + report.durationMs).toISOString();
  report.profile = { ...report.profile, name: options.profile ?? 'nightly' };
  report.labels = options.labels ?? { release: `v1.${n}`, gitSha: `${n.toString(16).padStart(4, '0')}abcdef0123456789` };
  return report;
}

/** `count` nights, the nights from `shiftFrom` on with `shiftMs` more latency. */
export function nights(count: number, shiftFrom = Number.POSITIVE_INFINITY, shiftMs = 20): Report[] {
  return Array.from({ length: count }, (_, i) => night(i + 1, { shiftMs: i + 1 >= shiftFrom ? shiftMs : 0 }));
}

/** As readHistory would hand them over (absolute file names, not in start order). */
export function entries(reports: readonly Report[]): HistoryEntry[] {
  return reports.map((report) => ({ file: `/history/${report.runId}/report.json`, report })).reverse();
}

/** Writes each report as `<dir>/<runId>/report.json`; returns the files. */
export async function writeNights(dir: string, reports: readonly Report[]): Promise<string[]> {
  const files: string[] = [];
  for (const report of reports) {
    const folder = join(dir, report.runId);
    await mkdir(folder, { recursive: true });
    const file = join(folder, 'report.json');
    await writeFile(file, JSON.stringify(report));
    files.push(file);
  }
  return files;
}
