/**
 * Time series (and any y-over-x) line chart: one or more series on a shared linear y axis
 * from zero, optional horizontal reference lines (a bound, an SLO) and shaded stretches of x
 * (a warm-up).
 */
import { escapeXml } from '../escape.js';
import { chartFrame, emptyChart, type LegendEntry, linePath, PLOT, placeReferences, SERIES_COLORS } from './chart-frame.js';
import { linearScale, niceTicks, type Tick, tickLabel } from './scale.js';

export interface LineSeries {
  name: string;
  /** [x, y]; a null y is a gap (no data in that interval), not a zero. */
  points: readonly (readonly [number, number | null])[];
}

export interface LineChartOptions {
  kind: string;
  label: string;
  xTitle: string;
  yTitle: string;
  series: readonly LineSeries[];
  references?: readonly { name: string; value: number }[];
  /** Formats x tick values (e.g. seconds as `1m30s`). */
  xTickLabel?: (value: number) => string;
  /** Draws points as dots too (sparse data such as a capacity search). */
  markers?: boolean;
  /** The y values are counts: no fractional ticks. */
  integerY?: boolean;
  /** Stretches of x shaded behind the data and named in the legend (a warm-up). */
  shadedX?: readonly ShadedRange[];
}

export interface ShadedRange {
  name: string;
  from: number;
  to: number;
  /** Grey unless given; ranges of one name share one legend entry. */
  color?: string;
}

const SHADE_COLOR = '#999999';

function finiteValues(series: readonly LineSeries[], pick: 0 | 1): number[] {
  const values: number[] = [];
  for (const line of series) {
    for (const point of line.points) {
      const value = point[pick];
      if (value !== null && Number.isFinite(value)) values.push(value);
    }
  }
  return values;
}

export function lineChart(options: LineChartOptions): string {
  const xs = finiteValues(options.series, 0);
  const ys = finiteValues(options.series, 1);
  if (ys.length === 0) return emptyChart(options.kind, options.label, 'No data points.');
  const placed = placeReferences(options.references ?? [], Math.max(...ys), (ref) => ref.value);
  const references = placed.drawn;
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs);
  const yTop = Math.max(...ys, ...references.map((ref) => ref.value), 0);
  const yTicks = niceTicks(Math.min(0, ...ys), yTop * 1.05 || 1, 5, tickLabel, options.integerY ? 1 : 0);
  const y = linearScale(yTicks.domain, [PLOT.bottom, PLOT.top]);
  const xTicks = niceTicks(xMin, xMax, 6, options.xTickLabel ?? tickLabel);
  // Keep the x domain to the data (time starts at the first interval), ticks inside it.
  const xDomain: [number, number] = xMax > xMin ? [xMin, xMax] : [xMin - 1, xMax + 1];
  const x = linearScale(xDomain, [PLOT.left, PLOT.right]);
  const ticksInside: Tick[] = xTicks.ticks.filter((tick) => tick.value >= xDomain[0] && tick.value <= xDomain[1]);
  const legend: LegendEntry[] = [];
  const body: string[] = [];
  for (const shade of options.shadedX ?? []) {
    const from = x(Math.max(shade.from, xDomain[0]));
    const to = x(Math.min(shade.to, xDomain[1]));
    if (to <= from) continue;
    const color = shade.color ?? SHADE_COLOR;
    if (!legend.some((entry) => entry.name === shade.name)) legend.push({ name: shade.name, color, swatch: 'band' });
    body.push(
      `<rect class="shade" data-shade="${escapeXml(shade.name)}" x="${from.toFixed(1)}" y="${PLOT.top}" width="${(to - from).toFixed(1)}" height="${PLOT.bottom - PLOT.top}" fill="${color}" fill-opacity="0.2"/>`,
    );
  }
  references.forEach((ref, index) => {
    const color = SERIES_COLORS[(options.series.length + index) % SERIES_COLORS.length] as string;
    legend.push({ name: ref.name, color, swatch: 'dashed' });
    const py = Math.round(y(ref.value) * 10) / 10;
    body.push(`<line class="reference" x1="${PLOT.left}" y1="${py}" x2="${PLOT.right}" y2="${py}" stroke="${color}"/>`);
  });
  options.series.forEach((line, index) => {
    const color = SERIES_COLORS[index % SERIES_COLORS.length] as string;
    legend.push({ name: line.name, color });
    body.push(`<path class="series" data-series="${index}" d="${linePath(line.points, x, y)}" stroke="${color}"/>`);
    // A line through one or two points is invisible or misleading; show the points themselves.
    const sparse = line.points.filter((point) => point[1] !== null).length <= 2;
    if (options.markers || sparse) {
      for (const [px, py] of line.points) {
        if (py === null) continue;
        body.push(`<circle class="marker" cx="${x(px).toFixed(1)}" cy="${y(py).toFixed(1)}" r="4" fill="${escapeXml(color)}"/>`);
      }
    }
  });
  for (const name of placed.named) legend.push({ name, color: SERIES_COLORS[5], swatch: 'dashed' });
  return chartFrame(
    {
      kind: options.kind,
      label: options.label,
      x: { title: options.xTitle, ticks: ticksInside, scale: x },
      y: { title: options.yTitle, ticks: yTicks.ticks, scale: y },
      legend,
    },
    body.join(''),
  );
}
