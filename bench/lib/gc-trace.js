// The garbage collector's own account of a run, from `node --trace-gc-nvp` output: one line per
// GC, "[pid:isolate:...] T ms: pause=P ... gc=s|mc|mmc ... promoted=B ...". Used where a latency
// tail may be the generator's GC pauses rather than the target (open-error.js): every pause stops
// the isolate's loop, and a request answered during it is timed late by that much.
import { rounder } from './round.js';

const LINE = /^\[\d+:(0x[0-9a-f]+)(?::\d+)?\]\s+([\d.]+) ms: pause=([\d.]+) .*?\bgc=(\w+)\b(.*)$/gm;
const KINDS = { s: 'scavenge', mmc: 'minorMarkSweep', mc: 'markCompact' };

const round = rounder(2);
const field = (rest, name) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(rest)?.[1] ?? 0);

function percentile(sorted, p) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Per isolate (the main thread first, then worker threads in the order they first collected):
 * GCs by kind, pauses (p50, p99, max, and how many reached 10 ms), the share of the isolate's
 * time spent paused, the bytes promoted to the old generation per second, and each mark-compact. The span is from
 * the isolate's first GC to its last, by its own clock. `fromMs` drops GCs before that isolate
 * time (start-up).
 */
export function gcSummary(output, { fromMs = 0 } = {}) {
  const byIsolate = new Map();
  for (const [, isolate, atMs, pauseMs, kind, rest] of output.matchAll(LINE)) {
    // Named by the order they first collected at all, before `fromMs` is applied: the main
    // isolate collects first while the process starts, and would lose its name to a worker
    // thread that happened to collect first after `fromMs`.
    if (!byIsolate.has(isolate)) byIsolate.set(isolate, []);
    if (Number(atMs) < fromMs) continue;
    byIsolate.get(isolate).push({
      atMs: Number(atMs),
      pauseMs: Number(pauseMs),
      kind: KINDS[kind] ?? kind,
      promoted: field(rest, 'promoted'),
      backgroundMarkMs: field(rest, 'background.mark'),
      liveBytes: field(rest, 'end_object_size'),
    });
  }
  return [...byIsolate.values()].flatMap((gcs, index) => (gcs.length === 0 ? [] : [isolateSummary(gcs, index)]));
}

/** One isolate's summary; `index` 0 is the main thread. */
function isolateSummary(gcs, index) {
  const pauses = gcs.map((gc) => gc.pauseMs).sort((a, b) => a - b);
  const spanSec = Math.max(1e-3, (gcs.at(-1).atMs - gcs[0].atMs) / 1_000);
  const count = (kind) => gcs.filter((gc) => gc.kind === kind).length;
  return {
    isolate: index === 0 ? 'main' : `thread ${index}`,
    spanSec: round(spanSec, 1),
    scavenges: count('scavenge'),
    minorMarkSweeps: count('minorMarkSweep'),
    markCompacts: count('markCompact'),
    pauseMs: { p50: round(percentile(pauses, 50)), p99: round(percentile(pauses, 99)), max: round(pauses.at(-1)) },
    pausesOver10Ms: pauses.filter((ms) => ms >= 10).length,
    pausedShare: round(pauses.reduce((a, b) => a + b, 0) / (spanSec * 1_000), 4),
    promotedMiBPerSec: round(gcs.reduce((a, gc) => a + gc.promoted, 0) / 2 ** 20 / spanSec),
    // Each mark-compact: when (isolate ms), its pause, the marking its helper threads did meanwhile (CPU the
    // other threads of a pinned process wait for) and the heap left after it.
    markCompactList: gcs
      .filter((gc) => gc.kind === 'markCompact')
      .map((gc) => ({
        atMs: Math.round(gc.atMs),
        pauseMs: gc.pauseMs,
        backgroundMarkMs: round(gc.backgroundMarkMs, 1),
        liveMiB: round(gc.liveBytes / 2 ** 20, 1),
      })),
  };
}
