/**
 * The common frame of every chart: an SVG with a viewBox (it scales to its column),
 * gridlines, tick labels, axis titles with units, and a legend. Chart modules only
 * compute scales and draw their data inside the plot area.
 */
import { escapeXml } from '../escape.js';
import type { Scale, Tick } from './scale.js';

/** Okabe-Ito colours: distinguishable with colour-blindness and on a washed-out projector. */
export const SERIES_COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#000000'] as const;

export const VIEW = { width: 640, height: 320 } as const;
/** Plot area insets inside the viewBox (room for tick labels, titles, legend). */
export const INSET = { left: 72, right: 24, top: 14, bottom: 58 } as const;
export const PLOT = {
  left: INSET.left,
  right: VIEW.width - INSET.right,
  top: INSET.top,
  bottom: VIEW.height - INSET.bottom,
} as const;

export interface Axis {
  title: string;
  ticks: readonly Tick[];
  scale: Scale;
}

export interface LegendEntry {
  name: string;
  color: string;
  /** `line` (default), `band` (a shaded range) or `dashed` (a reference line). */
  swatch?: 'line' | 'band' | 'dashed';
}

export interface FrameOptions {
  /** Kind of chart, written to `data-chart` (tests and readers of the source find charts by it). */
  kind: string;
  /** Accessible name: what the chart shows. */
  label: string;
  x: Axis;
  y: Axis;
  legend: readonly LegendEntry[];
}

const n = (value: number): string => (Math.round(value * 10) / 10).toString();

/*
 * The legend is HTML above the SVG, not SVG text: it wraps on narrow columns instead of
 * running off the plot, and stays readable when the chart is scaled down.
 */
function legend(entries: readonly LegendEntry[]): string {
  const items = entries.map((entry) => {
    const color = escapeXml(entry.color);
    const swatch =
      entry.swatch === 'band'
        ? `<rect x="1" y="1" width="20" height="10" fill="${color}" fill-opacity="0.2" stroke="${color}"/>`
        : `<line x1="0" y1="6" x2="22" y2="6" stroke="${color}" stroke-width="3"${entry.swatch === 'dashed' ? ' stroke-dasharray="6 3"' : ''}/>`;
    return `<span class="legend-item"><svg class="swatch" viewBox="0 0 22 12" aria-hidden="true">${swatch}</svg>${escapeXml(entry.name)}</span>`;
  });
  return `<div class="chart-legend">${items.join('')}</div>`;
}

function gridAndTicks(x: Axis, y: Axis): string {
  const parts: string[] = [];
  for (const tick of y.ticks) {
    const py = n(y.scale(tick.value));
    parts.push(`<line class="gridline" x1="${PLOT.left}" y1="${py}" x2="${PLOT.right}" y2="${py}"/>`);
    parts.push(`<text class="tick" x="${PLOT.left - 8}" y="${py}" text-anchor="end" dominant-baseline="middle">${escapeXml(tick.label)}</text>`);
  }
  for (const tick of x.ticks) {
    const px = n(x.scale(tick.value));
    parts.push(`<line class="gridline" x1="${px}" y1="${PLOT.top}" x2="${px}" y2="${PLOT.bottom}"/>`);
    // Edge labels anchor inwards so that "99.99%" is not cut by the viewBox.
    const at = x.scale(tick.value);
    const anchor = at > VIEW.width - 50 ? 'end' : at < 50 ? 'start' : 'middle';
    parts.push(
      `<text class="tick" x="${anchor === 'end' ? VIEW.width - 2 : px}" y="${PLOT.bottom + 22}" text-anchor="${anchor}">${escapeXml(tick.label)}</text>`,
    );
  }
  return parts.join('');
}

/** Wraps chart `body` (drawn in viewBox coordinates) in the frame; the legend goes above it. */
export function chartFrame(options: FrameOptions, body: string): string {
  const midX = n((PLOT.left + PLOT.right) / 2);
  const midY = n((PLOT.top + PLOT.bottom) / 2);
  return [
    '<div class="chart-box">',
    legend(options.legend),
    `<svg class="chart" data-chart="${escapeXml(options.kind)}" viewBox="0 0 ${VIEW.width} ${VIEW.height}" role="img" aria-label="${escapeXml(options.label)}" xmlns="http://www.w3.org/2000/svg">`,
    `<title>${escapeXml(options.label)}</title>`,
    gridAndTicks(options.x, options.y),
    `<rect class="plot-border" x="${PLOT.left}" y="${PLOT.top}" width="${PLOT.right - PLOT.left}" height="${PLOT.bottom - PLOT.top}"/>`,
    `<g class="data">${body}</g>`,
    `<text class="axis-title" x="${midX}" y="${VIEW.height - 10}" text-anchor="middle">${escapeXml(options.x.title)}</text>`,
    `<text class="axis-title" transform="translate(18 ${midY}) rotate(-90)" text-anchor="middle">${escapeXml(options.y.title)}</text>`,
    '</svg>',
    '</div>',
  ].join('');
}

/** A polyline path; a null y breaks the line (no data in that interval) instead of drawing zero. */
export function linePath(points: readonly (readonly [number, number | null])[], x: Scale, y: Scale): string {
  let d = '';
  let pen = false;
  for (const [px, py] of points) {
    if (py === null || !Number.isFinite(py)) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${n(x(px))} ${n(y(py))}`;
    pen = true;
  }
  return d;
}

/**
 * A reference line (threshold, bound) far above the data would squash the data into the
 * bottom of the plot; beyond this multiple of the data's top it is named, not drawn.
 */
export const REFERENCE_SPAN = 2;

/** Splits reference lines into those drawn and those only named (`… (above the chart)`). */
export function placeReferences<R extends { name: string }>(
  references: readonly R[],
  dataTop: number,
  value: (ref: R) => number,
): { drawn: R[]; named: string[] } {
  const drawn = references.filter((ref) => !(dataTop > 0 && value(ref) > dataTop * REFERENCE_SPAN));
  const named = references.filter((ref) => !drawn.includes(ref)).map((ref) => `${ref.name} (above the chart)`);
  return { drawn, named };
}

/** Shown in place of the plot when there is nothing to draw, so the page says so instead of an empty box. */
export function emptyChart(kind: string, label: string, message: string): string {
  return `<div class="chart-empty" data-chart="${escapeXml(kind)}" data-empty="true" role="note" aria-label="${escapeXml(label)}">${escapeXml(message)}</div>`;
}
