// RSS statistics of a soak from its samples: growth (a leak) and GC swings are reported apart.

const MiB = 2 ** 20;

/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  return points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0) / points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
}

/**
 * From `fromMinute` to `toMinute` (the load's end: what the report phase allocates after it is
 * not drift): RSS at the start, extremes, last, and the trend in MiB/min; with `heaps` (from
 * fullGcHeaps) the live heap's trend as well, so a climbing RSS over a flat heap is told apart
 * from our own objects growing. Also the RSS trend over each later start, to show a plateau.
 */
export function soakStats(samples, fromMinute = 5, heaps = [], toMinute = Number.POSITIVE_INFINITY) {
  const after = samples.filter((s) => s.minute >= fromMinute && s.minute <= toMinute);
  const at = after[0]?.rssBytes ?? NaN;
  const values = after.map((s) => s.rssBytes);
  const rssSlope = slope(after.map((s) => ({ x: s.minute, y: s.rssBytes })));
  const heapsAfter = heaps.filter((h) => h.minute >= fromMinute && h.minute <= toMinute);
  // From each start to the load's end, whatever the declared warm-up: where the plateau begins.
  const slopeFrom = (minute) =>
    +(slope(samples.filter((s) => s.minute >= minute && s.minute <= toMinute).map((s) => ({ x: s.minute, y: s.rssBytes }))) / MiB).toFixed(4);
  const heapSlope = slope(heapsAfter.map((h) => ({ x: h.minute, y: h.afterMiB })));
  return {
    rssAtFromMinuteBytes: at,
    rssMaxAfterFromMinuteBytes: Math.max(...values),
    rssMinAfterFromMinuteBytes: Math.min(...values),
    rssLastBytes: values.at(-1),
    maxGrowthFromFromMinute: +((Math.max(...values) - at) / at).toFixed(4),
    maxDropFromFromMinute: +((at - Math.min(...values)) / at).toFixed(4),
    rssSlopeMiBPerMin: +(rssSlope / MiB).toFixed(4),
    rssSlopeMiBPerMinFrom: Object.fromEntries([20, 30, 40, 60].filter((m) => m < toMinute - 10).map((m) => [`minute${m}`, slopeFrom(m)])),
    fullGcs: heapsAfter.length,
    heapAfterFullGcSlopeMiBPerMin: Number.isNaN(heapSlope) ? null : +heapSlope.toFixed(4),
    heapAfterFullGcFirstMiB: heapsAfter[0]?.afterMiB ?? null,
    heapAfterFullGcLastMiB: heapsAfter.at(-1)?.afterMiB ?? null,
    ...breakdownSlopes(after),
    rssMeanMiBBy10Minutes: meansBy10Minutes(samples.filter((s) => s.minute <= toMinute)),
    rssStepsOver1MiB: stepsOver(
      samples.filter((s) => s.minute <= toMinute),
      MiB,
    ),
  };
}

/** Mean RSS of each 10-minute span of the run, MiB, keyed by the span's first minute. */
function meansBy10Minutes(samples) {
  const spans = new Map();
  for (const sample of samples) {
    const span = Math.floor(sample.minute / 10) * 10;
    spans.set(span, [...(spans.get(span) ?? []), sample.rssBytes]);
  }
  return Object.fromEntries([...spans].map(([span, values]) => [`minute${span}`, +(values.reduce((a, b) => a + b, 0) / values.length / MiB).toFixed(1)]));
}

/**
 * Where RSS rose by more than `bytes` from one sample to the next: a leak climbs a little at
 * every sample, a high-water mark in steps (in a nightly soak, at the session-switch cycles).
 */
function stepsOver(samples, bytes) {
  const steps = [];
  for (let i = 1; i < samples.length; i++) {
    const step = samples[i].rssBytes - samples[i - 1].rssBytes;
    if (step > bytes) steps.push({ minute: samples[i].minute, stepMiB: +(step / MiB).toFixed(1) });
  }
  return steps;
}

const KINDS = ['brk', 'arenas', 'stacks', 'file', 'otherAnon'];

/**
 * The same trend for each part of RSS the samples split it into (absent in older results):
 * RssAnon and RssFile from every sample, and each kind of mapping from the samples that read
 * smaps. The part whose slope carries the RSS slope is the one that grows.
 */
function breakdownSlopes(after) {
  const trend = (points) => {
    const value = slope(points);
    return Number.isNaN(value) ? null : +(value / MiB).toFixed(4);
  };
  const split = after.filter((s) => s.anonBytes !== undefined);
  if (split.length === 0) return {};
  const mapped = after.filter((s) => s.smaps);
  return {
    rssAnonSlopeMiBPerMin: trend(split.map((s) => ({ x: s.minute, y: s.anonBytes }))),
    rssFileSlopeMiBPerMin: trend(split.map((s) => ({ x: s.minute, y: s.fileBytes }))),
    smapsSlopeMiBPerMin: Object.fromEntries(KINDS.map((kind) => [kind, trend(mapped.map((s) => ({ x: s.minute, y: s.smaps[kind] })))])),
    smapsFirstMiB: mapped[0] && Object.fromEntries(KINDS.map((kind) => [kind, +(mapped[0].smaps[kind] / MiB).toFixed(1)])),
    smapsLastMiB: mapped.at(-1) && Object.fromEntries(KINDS.map((kind) => [kind, +(mapped.at(-1).smaps[kind] / MiB).toFixed(1)])),
  };
}

// node --trace-gc prints "[pid:0xISOLATE]   123456 ms: Mark-Compact 45.1 (60.2) -> 40.3 (58.0) MB, ..."
const MARK_COMPACT = /\[\d+:(0x[0-9a-f]+)\]\s+(\d+) ms: Mark-Compact(?: \(reduce\))? ([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB/g;

/**
 * The main isolate's live heap after each full GC, from --trace-gc output. The main isolate is
 * the one whose lines appear first (worker threads start later); `minute` is the isolate's own
 * clock, which starts with the process.
 */
export function fullGcHeaps(output) {
  const all = [...output.matchAll(MARK_COMPACT)];
  const main = all[0]?.[1];
  return all
    .filter((m) => m[1] === main)
    .map((m) => ({ minute: +(Number(m[2]) / 60_000).toFixed(2), beforeMiB: Number(m[3]), afterMiB: Number(m[5]), committedMiB: Number(m[6]) }));
}
