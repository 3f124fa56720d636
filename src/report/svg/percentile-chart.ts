/**
 * Latency by percentile in the HdrHistogram plot style: x = 1/(1-p) on a log axis labelled
 * 0 %, 90 %, 99 %, 99.9 %, ...; y = latency in ms, linear from zero. The tail is where
 * a load test's story is, and this axis gives each "nine" the same width.
 */
import { formatCount } from '../format.js';
import { curveDecades, type PercentileCurve, percentileCurve } from '../hdr-curve.js';
import { chartFrame, emptyChart, type LegendEntry, linePath, PLOT, placeReferences, SERIES_COLORS } from './chart-frame.js';
import { linearScale, logScale, niceTicks, percentileTickLabel } from './scale.js';

export interface PercentileSeries {
  name: string;
  /** HDR compressed base64 of integer microseconds. */
  hdr: string;
}

export interface PercentileChartOptions {
  label: string;
  series: readonly PercentileSeries[];
  /** Horizontal reference lines (e.g. a latency threshold), in ms. */
  references?: readonly { name: string; valueMs: number }[];
}

/** Renders the chart, or an "no samples" note when every series is empty. */
export function percentileChart(options: PercentileChartOptions): string {
  const curves = options.series.map((series) => ({ series, curve: percentileCurve(series.hdr) }));
  const drawn = curves.filter((entry) => entry.curve.count > 0);
  if (drawn.length === 0) return emptyChart('percentile', options.label, 'No samples recorded.');
  const decades = curveDecades(drawn.map((entry) => entry.curve));
  const x = logScale([1, 10 ** decades], [PLOT.left, PLOT.right]);
  const dataTop = Math.max(...drawn.map((entry) => entry.curve.maxMs));
  const placed = placeReferences(options.references ?? [], dataTop, (ref) => ref.valueMs);
  const references = placed.drawn;
  const top = Math.max(dataTop, ...references.map((ref) => ref.valueMs));
  // Seconds read better than "15k ms" for KEEP_ALIVE-scale values; ticks stay nice in the shown unit.
  const perUnit = top >= 10_000 ? 1_000 : 1;
  const shown = niceTicks(0, (top * 1.05) / perUnit, 5);
  const yDomain: [number, number] = [shown.domain[0] * perUnit, shown.domain[1] * perUnit];
  const yTicks = shown.ticks.map((tick) => ({ value: tick.value * perUnit, label: tick.label }));
  const y = linearScale(yDomain, [PLOT.bottom, PLOT.top]);
  const xTicks = Array.from({ length: decades + 1 }, (_, decade) => ({ value: 10 ** decade, label: percentileTickLabel(decade) }));
  const legend: LegendEntry[] = [];
  const paths = drawn.map(({ series, curve }: { series: PercentileSeries; curve: PercentileCurve }, index) => {
    const color = SERIES_COLORS[index % SERIES_COLORS.length] as string;
    legend.push({ name: `${series.name} (n=${formatCount(curve.count)})`, color });
    const d = linePath(
      curve.points.map((point) => [point.x, point.valueMs] as const),
      x,
      y,
    );
    return `<path class="series" data-series="${index}" d="${d}" stroke="${color}"/>`;
  });
  const refs = references.map((ref, index) => {
    const color = SERIES_COLORS[(drawn.length + index) % SERIES_COLORS.length] as string;
    legend.push({ name: ref.name, color, swatch: 'dashed' });
    const py = Math.round(y(ref.valueMs) * 10) / 10;
    return `<line class="reference" x1="${PLOT.left}" y1="${py}" x2="${PLOT.right}" y2="${py}" stroke="${color}"/>`;
  });
  for (const name of placed.named) legend.push({ name, color: SERIES_COLORS[5], swatch: 'dashed' });
  return chartFrame(
    {
      kind: 'percentile',
      label: options.label,
      x: { title: 'Percentile (log scale: each tick adds a nine)', ticks: xTicks, scale: x },
      y: { title: perUnit === 1 ? 'Latency (ms)' : 'Latency (s)', ticks: yTicks, scale: y },
      legend,
    },
    refs.join('') + paths.join(''),
  );
}
