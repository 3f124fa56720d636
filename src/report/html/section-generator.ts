/**
 * The load generator's own health: if the driver was saturated, its latencies describe
 * itself, not the target. Shown with the bound that decides `generator.healthy`.
 */

import type { GeneratorBehind, Report } from '../../contract/report.js';
import { formatCount, formatMemory, formatMs, formatValue } from '../format.js';
import { percentileChart } from '../svg/percentile-chart.js';
import { figure, grid, keyValues, raw, section } from './parts.js';
import { percentileNote } from './section-latency.js';
import { renderTimeChart, series, shadedRanges } from './section-timeseries.js';

const MIB = 1_048_576;

/** "2 intervals, 2 s (6.7 % of the judged run; at most 1 %)", or "never". */
function behindText(behind: GeneratorBehind): string {
  if (behind.intervals === 0) return 'never';
  const percent = (share: number): string => formatValue(share * 100, 'percent');
  return `${formatCount(behind.intervals)} interval${behind.intervals === 1 ? '' : 's'}, ${behind.seconds} s (${percent(behind.share)} of the judged run; at most ${percent(behind.maxShare)})`;
}

export function generatorSection(report: Report): string {
  const generator = report.generator;
  const bound = generator.maxEventLoopDelayP99Ms;
  const figures = keyValues([
    // "PASS" next to "Saturated" would read as "saturated: yes"; say it plainly.
    ['Saturated', generator.saturated ? raw('<span class="badge fail">YES</span>') : 'no'],
    ['Event-loop delay p99', formatMs(generator.eventLoopDelayMs.p99)],
    ...(generator.requestLoopDelayMs ? [['Request thread event-loop delay p99', formatMs(generator.requestLoopDelayMs.p99)] as [string, string]] : []),
    ['Event-loop delay p99 bound', formatMs(bound)],
    ...(generator.behind ? [['Fell behind', behindText(generator.behind)] as [string, string]] : []),
    ['CPU (max per process)', formatValue(generator.cpuPercent, 'percent')],
    ['RSS at end', formatMemory(generator.rssBytes)],
    ['Peak RSS', formatMemory(generator.peakRssBytes)],
    ['Processes', formatCount(generator.processes)],
  ]);
  const eld = percentileChart({
    label: 'Load generator event-loop delay, by percentile',
    series: [
      { name: generator.requestLoopDelayMs ? 'event-loop delay (streams)' : 'event-loop delay', hdr: generator.eventLoopDelayMs.hdr },
      ...(generator.requestLoopDelayMs ? [{ name: 'event-loop delay (request thread)', hdr: generator.requestLoopDelayMs.hdr }] : []),
    ],
    references: [{ name: `saturation bound (p99) ${formatMs(bound)}`, valueMs: bound }],
  });
  const charts = [figure('Event-loop delay', eld, percentileNote('event-loop delay', generator.eventLoopDelayMs), 'perf_hooks.monitorEventLoopDelay')];
  const points = report.timeseries;
  if (points.length > 0) {
    // The first interval's delay is often the warm-up's (module loading, JIT): shaded as such,
    // and the intervals a driver fell behind in, in red.
    const shaded = shadedRanges(points);
    const shadedX = shaded.length > 0 ? { shadedX: shaded } : {};
    charts.push(
      renderTimeChart({
        kind: 'ts-event-loop',
        caption: 'Event-loop delay p99 over time',
        detail: 'per interval',
        yTitle: 'Delay p99 (ms)',
        series: [series(points, 'event-loop delay p99', (p) => p.eventLoopDelayP99Ms)],
        references: [{ name: 'saturation bound', value: bound }],
        ...shadedX,
      }),
      renderTimeChart({
        kind: 'ts-rss',
        caption: 'Resident memory over time',
        detail: 'driver process RSS',
        yTitle: 'RSS (MiB)',
        series: [series(points, 'RSS', (p) => Math.round((p.rssBytes / MIB) * 10) / 10)],
        ...shadedX,
      }),
    );
  }
  const behindOnly = generator.saturated && generator.eventLoopDelayMs.p99 <= bound;
  const intro = behindOnly
    ? "<p><strong>The generator fell behind</strong> in the intervals shaded red, longer than the run allows: latency figures from those seconds include the driver's own delay (often a ramp opening streams faster than one process can); spread the ramp, add workers or set a warm-up that covers it.</p>"
    : generator.saturated
      ? "<p><strong>The generator was saturated.</strong> Latency figures in this report include the driver's own delay; rerun with more workers or less load.</p>"
      : '<p class="muted">The generator stayed under its event-loop delay bound, so the latencies above describe the target.</p>';
  return section('generator', 'Load generator health', intro + figures + grid(charts));
}
