/**
 * Durations as people write them (docs/design.md §2.5): `500ms`, `30s`, `1.5s`, `2m30s`,
 * `1h30m15s`, `7d`. One parser serves every flag and every profile field, so a duration
 * means the same thing wherever it is written.
 */
import { ConfigError } from './errors.js';
import { printable } from './printable.js';

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000, ms: 1 } as const;
type Unit = keyof typeof UNIT_MS;
const UNITS_LARGEST_FIRST: readonly Unit[] = ['d', 'h', 'm', 's', 'ms'];

/**
 * The longest duration anywhere. Far beyond any run, and below setTimeout's ceiling
 * (2^31 - 1 ms, about 24.8 days), beyond which a timer fires at once and a run would end
 * after a few milliseconds instead of never.
 */
export const MAX_DURATION_MS = 7 * UNIT_MS.d;
/** MAX_DURATION_MS as written in messages and help. */
export const MAX_DURATION_TEXT = '7d';

const ACCEPTED = 'units ms, s, m, h, d; e.g. 500ms, 30s, 1.5s, 2m30s, 1h30m';

/** One number and its unit; `ms` is tried before `m`. */
const PART = /(\d+(?:\.\d+)?|\.\d+)[ \t]*(ms|s|m|h|d)?[ \t]*/y;

export interface DurationOptions {
  /**
   * What a number without a unit means. `refuse` (the default): `30` could be seconds or
   * milliseconds, so it is an error. `ms`: for the `latency=50` fault spec, documented in ms.
   */
  unitless?: 'refuse' | 'ms';
}

function checkMaximum(ms: number, shown: string, where: string): number {
  if (ms > MAX_DURATION_MS) throw new ConfigError(`${where}: ${shown} is longer than the maximum, ${MAX_DURATION_TEXT}`);
  return Math.round(ms);
}

/** Sums the parts of a compound duration; null when the text is not one. */
function sumParts(text: string, options: DurationOptions, where: string): number | null {
  let total = 0;
  let position = 0;
  let previousUnit = -1;
  while (position < text.length) {
    PART.lastIndex = position;
    const match = PART.exec(text);
    if (!match) return null;
    const [, number, unit] = match;
    const atEnd = position + match[0].length === text.length;
    const whole = position === 0 && atEnd;
    if (unit === undefined) {
      // `5w`, `1e3s`: an unknown unit or no duration at all, rather than a missing unit.
      if (!atEnd) return null;
      if (whole && options.unitless === 'ms') return Number(number);
      const quoted = `"${printable(text)}"`;
      throw new ConfigError(whole ? `${where}: ${quoted} has no unit (${ACCEPTED})` : `${where}: ${quoted}: every number needs a unit (${ACCEPTED})`);
    }
    const rank = UNITS_LARGEST_FIRST.indexOf(unit as Unit);
    if (rank <= previousUnit) throw new ConfigError(`${where}: "${printable(text)}": write the units largest first, each once (e.g. 1h30m)`);
    previousUnit = rank;
    total += Number(number) * UNIT_MS[unit as Unit];
    position += match[0].length;
  }
  return total;
}

/**
 * Milliseconds from a duration: text with units (`250ms`, `1h30m`), or a number, which is
 * milliseconds (a profile's JSON numbers). At most MAX_DURATION_MS. `where` names the flag
 * or the profile field; every error is one ConfigError line that starts with it.
 */
export function parseDuration(text: string | number, where: string, options: DurationOptions = {}): number {
  if (typeof text === 'number') {
    if (!Number.isFinite(text) || text < 0) throw new ConfigError(`${where}: a duration in milliseconds must be a non-negative number, got ${text}`);
    return checkMaximum(text, `${text} ms`, where);
  }
  const trimmed = text.trim();
  const total = trimmed === '' ? null : sumParts(trimmed, options, where);
  if (total === null) throw new ConfigError(`${where}: "${printable(text)}" is not a duration (${ACCEPTED})`);
  return checkMaximum(total, `"${printable(trimmed)}"`, where);
}

/** Formats milliseconds compactly for humans: `850ms`, `12.5s`, `3m20s`, `2h05m`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${+(ms / 1_000).toFixed(1)}s`;
  if (ms < 3_600_000) {
    const m = Math.floor(ms / 60_000);
    const s = Math.round((ms % 60_000) / 1_000);
    return `${m}m${String(s).padStart(2, '0')}s`;
  }
  const h = Math.floor(ms / 3_600_000);
  const m = Math.round((ms % 3_600_000) / 60_000);
  return `${h}h${String(m).padStart(2, '0')}m`;
}
