/**
 * A value distribution as bars on a log count axis (one late KEEP_ALIVE among thousands
 * must stay visible), with an optional shaded band (tolerance) and marker lines (expected).
 * Bars outside the band are drawn in the warning colour.
 */
import type { RecordedValue } from '../hdr-curve.js';
import { chartFrame, emptyChart, type LegendEntry, PLOT, SERIES_COLORS } from './chart-frame.js';
import { linearScale, logScale, niceTicks, tickLabel } from './scale.js';

export interface Bin {
  from: number;
  to: number;
  count: number;
  /** True for the last bin when it also holds every value above the axis range. */
  overflow: boolean;
}

/**
 * Counts values into `binCount` equal bins over [lo, hi]; values below lo fall into the first
 * bin, values above hi into the last (marked overflow), so no sample is ever lost.
 */
export function binValues(values: readonly RecordedValue[], lo: number, hi: number, binCount: number): Bin[] {
  const width = (hi - lo) / binCount || 1;
  const bins: Bin[] = Array.from({ length: binCount }, (_, i) => ({ from: lo + i * width, to: lo + (i + 1) * width, count: 0, overflow: false }));
  for (const { valueMs, count } of values) {
    const index = Math.min(binCount - 1, Math.max(0, Math.floor((valueMs - lo) / width)));
    const bin = bins[index] as Bin;
    bin.count += count;
    if (valueMs > hi) bin.overflow = true;
  }
  return bins;
}

export interface DistributionChartOptions {
  kind: string;
  label: string;
  xTitle: string;
  seriesName: string;
  bins: readonly Bin[];
  band?: { name: string; from: number; to: number };
  markers?: readonly { name: string; value: number }[];
  xTickLabel?: (value: number) => string;
}

const OK_COLOR = SERIES_COLORS[0];
const OUT_COLOR = SERIES_COLORS[1];
const BAND_COLOR = SERIES_COLORS[2];
const MARK_COLOR = SERIES_COLORS[5];

export function distributionChart(options: DistributionChartOptions): string {
  const { bins, band } = options;
  const maxCount = Math.max(0, ...bins.map((bin) => bin.count));
  if (bins.length === 0 || maxCount === 0) return emptyChart(options.kind, options.label, 'No samples recorded.');
  const lo = (bins[0] as Bin).from;
  const hi = (bins[bins.length - 1] as Bin).to;
  const x = linearScale([lo, hi], [PLOT.left, PLOT.right]);
  const decades = Math.max(1, Math.ceil(Math.log10(maxCount * 1.5)));
  // Lower end below 1 so a bin holding a single value still has a visible bar.
  const y = logScale([0.5, 10 ** decades], [PLOT.bottom, PLOT.top]);
  const yTicks = Array.from({ length: decades + 1 }, (_, i) => ({ value: 10 ** i, label: tickLabel(10 ** i) }));
  const xTicks = niceTicks(lo, hi, 6, options.xTickLabel ?? tickLabel).ticks.filter((tick) => tick.value >= lo && tick.value <= hi);
  const legend: LegendEntry[] = [{ name: options.seriesName, color: OK_COLOR }];
  const body: string[] = [];
  if (band) {
    legend.push({ name: band.name, color: BAND_COLOR, swatch: 'band' });
    legend.push({ name: 'outside band', color: OUT_COLOR });
    const x0 = x(Math.max(lo, band.from));
    const x1 = x(Math.min(hi, band.to));
    body.push(
      `<rect class="band" x="${x0.toFixed(1)}" y="${PLOT.top}" width="${Math.max(0, x1 - x0).toFixed(1)}" height="${PLOT.bottom - PLOT.top}" fill="${BAND_COLOR}"/>`,
    );
  }
  for (const bin of bins) {
    if (bin.count === 0) continue;
    const inBand = !band || (bin.from >= band.from - 1e-9 && bin.to <= band.to + 1e-9);
    const left = x(bin.from) + 0.5;
    const width = Math.max(1, x(bin.to) - x(bin.from) - 1);
    const top = y(bin.count);
    const title = `${tickLabel(bin.from)}–${bin.overflow ? '∞' : tickLabel(bin.to)}: ${bin.count}`;
    body.push(
      `<rect class="bar" data-count="${bin.count}" x="${left.toFixed(1)}" y="${top.toFixed(1)}" width="${width.toFixed(1)}" height="${(PLOT.bottom - top).toFixed(1)}" fill="${inBand ? OK_COLOR : OUT_COLOR}"><title>${title}</title></rect>`,
    );
  }
  for (const marker of options.markers ?? []) {
    legend.push({ name: marker.name, color: MARK_COLOR, swatch: 'dashed' });
    const px = x(marker.value).toFixed(1);
    body.push(`<line class="reference" x1="${px}" y1="${PLOT.top}" x2="${px}" y2="${PLOT.bottom}" stroke="${MARK_COLOR}"/>`);
  }
  return chartFrame(
    {
      kind: options.kind,
      label: options.label,
      x: { title: options.xTitle, ticks: xTicks, scale: x },
      y: { title: 'Count (log scale)', ticks: yTicks, scale: y },
      legend,
    },
    body.join(''),
  );
}
