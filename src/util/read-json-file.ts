/**
 * The one reader of coachbench's own JSON input files: profiles, fixtures files and
 * report.json (docs/design.md §2.5). Before anything parses or validates the text, the file
 * must be no larger than its kind's limit, valid UTF-8, and nest no deeper than
 * MAX_JSON_DEPTH; each refusal is one ConfigError line (exit 2) naming the file and, where
 * the problem sits at a place, file:line:column.
 */
import { formatBytes } from './bytes.js';
import { ConfigError } from './errors.js';
import { jsonProblem, lineAndColumn, parseJsonText } from './json-text.js';
import { NotRegularFile, readHead, withRegularFile } from './regular-file.js';
import { cannotRead, flagAndPath } from './system-error.js';
import { decodeUtf8 } from './utf8.js';

const MIB = 1024 * 1024;

/**
 * The largest file of each kind. A profile is written by hand; a fixtures file holds about
 * 200 bytes per participant (1,000,000 participants fit); a report keeps its time series to
 * 720 points, so even a week's run stays far below its limit. Each is well under V8's longest string.
 */
export const JSON_FILE_MAX_BYTES = {
  profile: 1 * MIB,
  fixtures: 256 * MIB,
  report: 256 * MIB,
} as const;
export type JsonFileKind = keyof typeof JSON_FILE_MAX_BYTES;

const KIND_NAMES: Record<JsonFileKind, string> = { profile: 'a profile', fixtures: 'a fixtures file', report: 'a report' };

export interface JsonFileSpec {
  kind: JsonFileKind;
  /** The file as messages name it (`profiles/smoke.json`, or the path given). */
  source: string;
  /** The flag that named the file (`--fixtures`), or null for a command's argument: a file that cannot be read is said `FLAG SOURCE: CODE, reason`. */
  flag: string | null;
  /** Comments and trailing commas allowed (profiles). */
  jsonc: boolean;
  /** Overrides the kind's limit (tests). */
  maxBytes?: number;
}

/**
 * At most `limit + 1` bytes of a regular file: enough to know it is too large. A regular file
 * says its size, so a huge one is refused unread.
 */
const readBounded = (path: string, limit: number): Promise<{ bytes: Uint8Array; size: number }> =>
  withRegularFile(path, async (handle, stats) => {
    if (stats.size > limit) return { bytes: new Uint8Array(0), size: stats.size };
    const bytes = await readHead(handle, limit + 1);
    return { bytes, size: bytes.length };
  });

/**
 * The file as a refusal of the file itself names it (not a regular file, too large): with its
 * flag, as a file that cannot be read is (docs/design.md §2.10). What its text holds is said
 * at file:line:column, without the flag.
 */
const named = (spec: JsonFileSpec): string => flagAndPath(spec.flag, spec.source);

/** Reads, checks and parses a JSON input file; every refusal is one ConfigError line naming it. */
export async function readJsonFile(path: string, spec: JsonFileSpec): Promise<unknown> {
  const limit = spec.maxBytes ?? JSON_FILE_MAX_BYTES[spec.kind];
  let read: { bytes: Uint8Array; size: number };
  try {
    read = await readBounded(path, limit);
  } catch (error) {
    if (error instanceof NotRegularFile)
      throw new ConfigError(`${named(spec)}: not a regular file but ${error.kind}; coachbench reads ${KIND_NAMES[spec.kind]} from a regular file only`);
    throw cannotRead(spec.flag, spec.source, error);
  }
  if (read.size > limit) {
    const size = read.bytes.length === 0 ? formatBytes(read.size) : `more than ${formatBytes(limit)}`;
    throw new ConfigError(`${named(spec)}: ${size}, larger than ${KIND_NAMES[spec.kind]} may be (${formatBytes(limit)})`);
  }
  const decoded = decodeUtf8(read.bytes);
  if ('problem' in decoded) {
    const { offset, byte } = decoded.problem;
    const before = new TextDecoder().decode(read.bytes.subarray(0, offset));
    // The file's first problem is the one to name: a binary file is not JSON from its first
    // byte (`\x7fELF...`), which says more than its first byte that is not UTF-8.
    const earlier = jsonProblem(new TextDecoder().decode(read.bytes), spec.source, { jsonc: spec.jsonc });
    if (earlier !== null && earlier.offset < before.length) throw earlier.error;
    const { line, column } = lineAndColumn(before, before.length);
    const hex = `0x${byte.toString(16).padStart(2, '0')}`;
    throw new ConfigError(`${spec.source}:${line}:${column}: not valid UTF-8: byte ${hex} at byte offset ${offset} (save the file as UTF-8)`);
  }
  return parseJsonText(decoded.text, spec.source, { jsonc: spec.jsonc });
}
