/** Scales and "nice" ticks for the inline SVG charts. Pure arithmetic, no DOM. */

export type Scale = (value: number) => number;

export interface Tick {
  value: number;
  label: string;
}

export function linearScale(domain: readonly [number, number], range: readonly [number, number]): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

/** Log10 scale; values at or below zero are pinned to the domain's lower end. */
export function logScale(domain: readonly [number, number], range: readonly [number, number]): Scale {
  const lo = Math.log10(domain[0]);
  const inner = linearScale([lo, Math.log10(domain[1])], range);
  return (value) => inner(value > 0 ? Math.max(lo, Math.log10(value)) : lo);
}

/** A 1-2-5 step near `span / count`. */
export function niceStep(span: number, count: number): number {
  if (!(span > 0)) return 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  const nice = unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10;
  return nice * power;
}

/** Compact tick text: 1,500 → `1.5k`, 2,000,000 → `2M`, 0.25 → `0.25`. */
export function tickLabel(value: number): string {
  const magnitude = Math.abs(value);
  const trim = (text: string): string => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);
  if (magnitude >= 1_000_000) return `${trim((value / 1_000_000).toFixed(2))}M`;
  if (magnitude >= 10_000) return `${trim((value / 1_000).toFixed(1))}k`;
  if (magnitude >= 100 || Number.isInteger(value)) return String(Math.round(value));
  return trim(value.toFixed(magnitude < 1 ? 3 : 2));
}

/**
 * Ticks covering [min, max] with a nice step (at least `minStep`: 1 for counts, so no
 * "0.5 errors"); the returned domain is widened to whole steps so the top gridline is labelled.
 */
export function niceTicks(
  min: number,
  max: number,
  count = 5,
  label: (value: number) => string = tickLabel,
  minStep = 0,
): { domain: [number, number]; ticks: Tick[] } {
  const hi = max > min ? max : min + 1;
  const step = Math.max(minStep, niceStep(hi - min, count));
  const start = Math.floor(min / step) * step;
  const end = Math.ceil(hi / step) * step;
  const ticks: Tick[] = [];
  // Index-based so float steps (0.1) do not accumulate error.
  for (let i = 0; start + i * step <= end + step / 1e6; i += 1) {
    const value = Number((start + i * step).toPrecision(12));
    ticks.push({ value, label: label(value) });
  }
  return { domain: [start, end], ticks };
}

/** Percentile axis label of x = 1/(1-p) at a decade: 1 → 0 %, 10 → 90 %, 1000 → 99.9 %. */
export function percentileTickLabel(decade: number): string {
  if (decade === 0) return '0%';
  return `${(100 - 100 / 10 ** decade).toFixed(Math.max(0, decade - 2))}%`;
}
