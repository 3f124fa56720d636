import { ConfigError } from './errors.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/**
 * Parses a duration such as `250ms`, `30s`, `5m`, `1.5h` (a bare number is milliseconds)
 * into milliseconds. `where` names the flag or profile field for the error message.
 */
export function parseDuration(text: string | number, where: string): number {
  if (typeof text === 'number') {
    if (Number.isFinite(text) && text >= 0) return text;
    throw new ConfigError(`${where}: duration must be a non-negative number, got ${text}`);
  }
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!match) {
    throw new ConfigError(`${where}: "${text}" is not a duration (use e.g. 500ms, 30s, 5m, 2h)`);
  }
  const value = Number(match[1]);
  const unit = match[2] ?? 'ms';
  return Math.round(value * (UNIT_MS[unit] ?? 1));
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
