/**
 * Threshold expressions (`chatStreams.eventLatencyMs.p99 < 250ms`): a hand-written scanner
 * and parser, no eval. Grammar, with optional blanks between the parts:
 *
 *   threshold := path [window | stage] op number [unit]
 *   path      := segment ("." segment)*      segment := [A-Za-z0-9_:-]+
 *   window    := "[" duration "]"            (e.g. [5m]: judged every interval over the last 5 minutes)
 *   stage     := "{stage:" name "}"          (e.g. {stage:peak}: judged over that named stage only)
 *   op        := "<" | "<=" | ">" | ">=" | "==" | "!="
 *   number    := ["-"] digits ["." digits] [("e"|"E") ["+"|"-"] digits]
 *   unit      := "us" | "ms" | "s" | "m" | "%" | "KiB" | "MiB" | "GiB"   (must fit the metric's unit)
 *
 * The path is checked against the metric catalog at parse time. Positions in messages are
 * 1-based character positions in the expression.
 */
import type { ThresholdResult } from '../contract/report.js';
import { parseDuration } from '../util/duration.js';
import { ConfigError } from '../util/errors.js';
import { type MetricRef, type MetricSource, type MetricUnit, readMetric, resolveMetricPath } from './metric-catalog.js';

export type ThresholdOp = '<' | '<=' | '>' | '>=' | '==' | '!=';

/** A parsed threshold; `limit` is in the metric's own unit (suffixes already applied). */
export interface ParsedThreshold {
  expression: string;
  metric: MetricRef;
  op: ThresholdOp;
  limit: number;
  /** Sliding window (`p99[5m]`): judged every interval over the last windowMs; null: over the whole run. */
  windowMs: number | null;
  /** A named stage (`p99{stage:peak}`, docs/design.md §2.11): judged over that stage's intervals; null: the whole run. */
  stage: string | null;
}

const OPS: readonly ThresholdOp[] = ['<=', '>=', '==', '!=', '<', '>'];
const SEGMENT_CHAR = /[A-Za-z0-9_:-]/;

/** Unit suffix → metric unit it applies to → factor into that unit. */
const SUFFIXES: Record<string, Partial<Record<MetricUnit, number>>> = {
  us: { ms: 0.001 },
  ms: { ms: 1 },
  s: { ms: 1_000, seconds: 1 },
  m: { ms: 60_000, seconds: 60 },
  '%': { ratio: 0.01, percent: 1 },
  KiB: { bytes: 1_024 },
  MiB: { bytes: 1_048_576 },
  GiB: { bytes: 1_073_741_824 },
};

class Scanner {
  pos = 0;
  constructor(readonly text: string) {}
  skipBlanks(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos] as string)) this.pos += 1;
  }
  atEnd(): boolean {
    return this.pos >= this.text.length;
  }
  peek(): string {
    return this.text[this.pos] ?? '';
  }
  /** Consumes the longest run matching `char`, returning it (possibly empty). */
  takeWhile(char: RegExp): string {
    const start = this.pos;
    while (this.pos < this.text.length && char.test(this.text[this.pos] as string)) this.pos += 1;
    return this.text.slice(start, this.pos);
  }
}

function fail(expression: string, where: string, position: number, message: string): never {
  throw new ConfigError(`${where}: threshold "${expression}": ${message} at position ${position + 1}`);
}

/** Throws the ConfigError for a position; typed so that TypeScript narrows after a call. */
type Fault = (position: number, message: string) => never;

function scanPath(s: Scanner, fault: Fault): { segments: string[]; starts: number[] } {
  const segments: string[] = [];
  const starts: number[] = [];
  for (;;) {
    const start = s.pos;
    const segment = s.takeWhile(SEGMENT_CHAR);
    if (segment === '') {
      const found = s.atEnd() ? 'end of expression' : `"${s.peek()}"`;
      fault(start, `expected a metric path segment, found ${found}`);
    }
    segments.push(segment);
    starts.push(start);
    if (s.peek() !== '.') return { segments, starts };
    s.pos += 1;
  }
}

function scanNumber(s: Scanner, fault: Fault): number {
  const start = s.pos;
  const match = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(s.text.slice(s.pos));
  if (!match) fault(start, `expected a number, found ${s.atEnd() ? 'end of expression' : `"${s.peek()}"`}`);
  const value = Number(match[0]);
  // `1e400` reads as Infinity: a limit no value could break (or meet) is a mistake, not a threshold.
  if (!Number.isFinite(value)) fault(start, `${match[0]} is too large a number`);
  s.pos += match[0].length;
  return value;
}

/** `[5m]` right after the path: a duration with its unit, more than 0. */
function scanWindow(s: Scanner, fault: Fault): number {
  const open = s.pos;
  const close = s.text.indexOf(']', open);
  if (close < 0) fault(open, 'a window opened with "[" is not closed with "]"');
  const text = s.text.slice(open + 1, close).trim();
  let windowMs: number;
  try {
    windowMs = parseDuration(text, 'window');
  } catch {
    fault(open + 1, `"${text}" is not a window duration (e.g. [30s], [5m])`);
  }
  if (windowMs <= 0) fault(open + 1, 'a window must be longer than 0');
  s.pos = close + 1;
  return windowMs;
}

/** `{stage:NAME}` right after the path: the name of a stage of the profile (checked against the plan by the run). */
function scanStage(s: Scanner, fault: Fault): string {
  const open = s.pos;
  const match = /^\{\s*stage\s*:\s*([A-Za-z0-9_.-]+)\s*\}/.exec(s.text.slice(open));
  if (!match) fault(open, "a stage is written {stage:NAME} (NAME as in the profile's stages)");
  s.pos += match[0].length;
  return match[1] as string;
}

/**
 * Parses one expression. `where` names its origin (`--threshold`, `profile.thresholds[2]`).
 * Throws a one-line ConfigError naming the expression and the 1-based position.
 */
export function parseThreshold(expression: string, where: string): ParsedThreshold {
  const fault: Fault = (pos, message) => fail(expression, where, pos, message);
  const s = new Scanner(expression);
  s.skipBlanks();
  if (s.atEnd()) fault(s.pos, 'empty expression');
  const { segments, starts } = scanPath(s, fault);
  const resolved = resolveMetricPath(segments);
  if (!resolved.ok) {
    const position = starts[resolved.segment] ?? s.pos;
    fault(position, resolved.message);
  }
  const metric = resolved.ref;
  s.skipBlanks();
  const windowMs = s.peek() === '[' ? scanWindow(s, fault) : null;
  s.skipBlanks();
  const stageAt = s.pos;
  const stage = s.peek() === '{' ? scanStage(s, fault) : null;
  if (stage !== null && windowMs !== null) fault(stageAt, 'a threshold has a window or a stage, not both');
  s.skipBlanks();
  const op = OPS.find((candidate) => s.text.startsWith(candidate, s.pos));
  if (!op) fault(s.pos, `expected an operator (< <= > >= == !=), found ${s.atEnd() ? 'end of expression' : `"${s.peek()}"`}`);
  s.pos += op.length;
  s.skipBlanks();
  let limit = scanNumber(s, fault);
  s.skipBlanks();
  const unitStart = s.pos;
  const suffix = s.takeWhile(/[%A-Za-z]/);
  if (suffix !== '') {
    const factor = SUFFIXES[suffix]?.[metric.unit];
    if (factor === undefined) {
      const reason = SUFFIXES[suffix] ? `does not apply to ${metric.path} (unit: ${metric.unit})` : 'is not a unit (use us, ms, s, m, %, KiB, MiB, GiB)';
      fault(unitStart, `"${suffix}" ${reason}`);
    }
    limit *= factor;
  }
  s.skipBlanks();
  if (!s.atEnd()) fault(s.pos, `unexpected "${s.text.slice(s.pos)}" after the number`);
  return { expression: expression.trim(), metric, op, limit, windowMs, stage };
}

/** Parses every expression, then throws once listing every problem (exit 2). */
export function parseThresholds(expressions: readonly string[], where: string): ParsedThreshold[] {
  const parsed: ParsedThreshold[] = [];
  const problems: string[] = [];
  expressions.forEach((expression, index) => {
    try {
      parsed.push(parseThreshold(expression, `${where}[${index}]`));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
    }
  });
  if (problems.length > 0) throw new ConfigError(problems.join('; '));
  return parsed;
}

/** Whether `observed op limit` holds. */
export function compareWith(observed: number, op: ThresholdOp, limit: number): boolean {
  switch (op) {
    case '<':
      return observed < limit;
    case '<=':
      return observed <= limit;
    case '>':
      return observed > limit;
    case '>=':
      return observed >= limit;
    case '==':
      return observed === limit;
    case '!=':
      return observed !== limit;
  }
}

/**
 * Evaluates one parsed threshold over the whole run; a metric the report lacks fails with
 * observed null. A sliding-window or stage threshold takes its result from `windowed` (judged
 * by ThresholdMonitor); without one it fails with observed null.
 */
export function evaluateThreshold(threshold: ParsedThreshold, report: MetricSource, windowed?: ReadonlyMap<string, ThresholdResult>): ThresholdResult {
  if (threshold.windowMs !== null || threshold.stage !== null)
    return windowed?.get(threshold.expression) ?? { expression: threshold.expression, status: 'fail', observed: null };
  const observed = readMetric(report, threshold.metric);
  const status = observed !== null && compareWith(observed, threshold.op, threshold.limit) ? 'pass' : 'fail';
  return { expression: threshold.expression, status, observed };
}

/**
 * Parses and evaluates expressions against a (final, merged) report, or the summaries after
 * warm-up. Throws ConfigError when any expression does not parse; a metric absent from the
 * report fails (observed null).
 */
export function evaluateThresholds(expressions: readonly string[], report: MetricSource, windowed?: ReadonlyMap<string, ThresholdResult>): ThresholdResult[] {
  return parseThresholds(expressions, 'thresholds').map((threshold) => evaluateThreshold(threshold, report, windowed));
}
