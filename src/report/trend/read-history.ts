/**
 * Reads the report.json files of a history: files, folders (every report.json below them)
 * and globs. Each report is validated like `compare` validates one (schema and HDR
 * payloads) and then slimmed to what a trend reads, a few kilobytes, so that hundreds of
 * reports stay in bounded memory; a few are read at a time. A file that is not a usable
 * report is skipped with its reason, never thrown.
 */
import { glob, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Report } from '../../contract/report.js';
import { loadReport } from '../../contract/validate-report.js';
import { decodeHistogram } from '../../metrics/histogram.js';
import { ConfigError } from '../../util/errors.js';

/** One usable report of the history, slimmed. */
export interface HistoryEntry {
  /** Absolute path of the report.json. */
  file: string;
  report: Report;
}

export interface SkippedFile {
  file: string;
  reason: string;
}

export interface History {
  entries: HistoryEntry[];
  skipped: SkippedFile[];
}

const REPORT_FILE = 'report.json';
/** Folders are searched this deep: `reports/nightly/<run>/report.json` is depth 3. */
const MAX_DEPTH = 4;
/** Reports read and validated at once: enough to overlap I/O, few enough to bound memory. */
const CONCURRENCY = 8;

async function reportsUnder(dir: string, depth: number, found: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name === REPORT_FILE) found.push(path);
    else if (entry.isDirectory() && depth < MAX_DEPTH) await reportsUnder(path, depth + 1, found);
  }
}

const isGlob = (text: string): boolean => /[*?[\]{}]/.test(text);

async function expandOne(input: string, found: string[]): Promise<boolean> {
  const stats = await stat(input).catch(() => null);
  if (stats?.isDirectory()) {
    await reportsUnder(input, 1, found);
    return true;
  }
  if (stats !== null) {
    found.push(input);
    return true;
  }
  if (!isGlob(input)) return false;
  let matched = false;
  for await (const path of glob(input)) {
    matched = true;
    await expandOne(path, found);
  }
  return matched;
}

/**
 * The report files the inputs name, absolute, each once, in a stable order. Throws one
 * ConfigError (exit 2) naming every input that names nothing.
 */
export async function expandInputs(inputs: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const nothing: string[] = [];
  for (const input of inputs) if (!(await expandOne(input, found))) nothing.push(input);
  if (nothing.length > 0) throw new ConfigError(`no such file, folder or match: ${nothing.join(', ')}`);
  return [...new Set(found.map((path) => resolve(path)))].sort();
}

/**
 * What a trend reads of a report: identity, labels, thresholds and the scenario and
 * generator summaries (with their HDR payloads). Time series, raw metrics, checks, samples
 * and the profile's body are dropped.
 */
export function slimReport(report: Report): Report {
  const chat = report.scenarios.chatStreams;
  const slim: Report = {
    ...report,
    profile: { name: report.profile.name },
    checks: [],
    scenarios: { ...report.scenarios, chatStreams: chat ? { ...chat, samples: [] } : null },
    timeseries: [],
    warnings: [],
    metrics: { counters: {}, peaks: {}, histograms: {}, samples: {} },
  };
  delete slim.capacity;
  delete slim.workers;
  return slim;
}

async function readOne(file: string): Promise<HistoryEntry | SkippedFile> {
  try {
    return { file, report: slimReport(await loadReport(file, { decodeHdr: decodeHistogram })) };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // loadReport's messages start with the path (`file: why`, `file:3:7: why`); the skip list names the file apart.
    const rest = error.message.startsWith(file) ? error.message.slice(file.length) : `: ${error.message}`;
    return { file, reason: rest.startsWith(': ') ? rest.slice(2) : `at ${rest.slice(1)}` };
  }
}

/** Reads every file, CONCURRENCY at a time; the unusable ones come back as skipped, with why. */
export async function readHistory(files: readonly string[]): Promise<History> {
  const results: Array<HistoryEntry | SkippedFile> = new Array(files.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const at = next;
      next += 1;
      results[at] = await readOne(files[at] as string);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
  const history: History = { entries: [], skipped: [] };
  for (const result of results) {
    if ('report' in result) history.entries.push(result);
    else history.skipped.push(result);
  }
  return history;
}
