import { ConfigError } from './errors.js';

const UNIT_BYTES: Record<string, number> = { B: 1, KiB: 1024, MiB: 1024 * 1024 };

/** Parses `16KiB`, `2MiB`, `512B` or a number of bytes. */
export function parseBytes(text: string | number, where: string): number {
  if (typeof text === 'number') return text;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(B|KiB|MiB)?\s*$/.exec(text);
  if (!match) throw new ConfigError(`${where}: "${text}" is not a size (use e.g. 16KiB, 2MiB)`);
  return Math.round(Number(match[1]) * (UNIT_BYTES[match[2] ?? 'B'] ?? 1));
}

/**
 * The one byte formatter. `size` writes a size as a profile does (`16KiB`, `1.5MiB`, `512B`),
 * so a message can quote it back; `memory` writes a process's memory as the report views do
 * (`241.3 MiB`, `1.20 GiB`).
 */
export function formatBytes(bytes: number, style: 'size' | 'memory' = 'size'): string {
  if (style === 'memory') {
    const mib = bytes / 1_048_576;
    return mib >= 1_024 ? `${(mib / 1_024).toFixed(2)} GiB` : `${mib.toFixed(1)} MiB`;
  }
  if (bytes >= 1024 * 1024) return `${+(bytes / 1024 / 1024).toFixed(1)}MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)}KiB`;
  return `${bytes}B`;
}
