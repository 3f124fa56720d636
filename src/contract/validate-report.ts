/**
 * Validates report.json against schemas/report.schema.json, so that `report`, `compare`
 * and `merge` refuse a file they would misread (exit 2) instead of rendering nonsense or
 * failing halfway as if coachbench itself were broken.
 */
import { readFileSync } from 'node:fs';
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv';
import { ConfigError } from '../util/errors.js';
import { PACKAGE_ROOT } from '../util/package-root.js';
import { loadValidator, type ValidatorSpec } from '../util/precompiled-validator.js';
import { printable } from '../util/printable.js';
import { readJsonFile } from '../util/read-json-file.js';
import { REPORT_SCHEMA_VERSION, type Report } from './report.js';

/** Where the schema lives. */
export const REPORT_SCHEMA_URL = new URL('schemas/report.schema.json', PACKAGE_ROOT);

/** The report schema, every problem collected (the validator compiled at build time when it matches). */
export function reportValidatorSpec(): ValidatorSpec {
  return {
    name: 'report',
    dialect: '2020-12',
    options: { allErrors: true, allowUnionTypes: true },
    schema: JSON.parse(readFileSync(REPORT_SCHEMA_URL, 'utf8')) as AnySchemaObject,
  };
}

let compiled: ValidateFunction | null = null;

function validator(): ValidateFunction {
  compiled ??= loadValidator(reportValidatorSpec());
  return compiled;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'report' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'enum') return `${where} must be one of ${JSON.stringify(params.allowedValues)}`;
  if (error.keyword === 'const') return `${where} must be ${JSON.stringify(params.allowedValue)}`;
  return `${where} ${error.message ?? 'is invalid'}`;
}

/*
 * `oneOf [null, object]` (scenarios that may be off) reports both branches. The "must be
 * null" branch and the oneOf summary only add noise when the object branch explains more.
 */
function relevant(errors: readonly ErrorObject[]): ErrorObject[] {
  const explained = (error: ErrorObject): boolean =>
    errors.some((other) => other !== error && other.keyword !== 'oneOf' && other.instancePath.startsWith(error.instancePath) && !isNullBranch(other));
  const isNullBranch = (error: ErrorObject): boolean => error.keyword === 'type' && (error.params as { type?: unknown }).type === 'null';
  return errors.filter((error) => !isNullBranch(error) && !(error.keyword === 'oneOf' && explained(error)));
}

function majorOf(version: string): string {
  return version.split('.')[0] ?? '';
}

/** Checks any parsed JSON against the report schema; `errors` are short, path-first sentences. */
export function validateReport(data: unknown): { valid: boolean; errors: string[] } {
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'string' && majorOf(version) !== majorOf(REPORT_SCHEMA_VERSION)) {
    return { valid: false, errors: [`schemaVersion ${version} is not supported (this coachbench reads ${majorOf(REPORT_SCHEMA_VERSION)}.x)`] };
  }
  const validate = validator();
  if (validate(data)) return { valid: true, errors: [] };
  const errors = [...new Set(relevant(validate.errors ?? []).map(describe))];
  return { valid: false, errors };
}

const MAX_ERRORS_SHOWN = 3;

/** One HDR payload of a report and where it sits, as a JSON pointer (`/scenarios/chatStreams/eventLatencyMs/hdr`). */
export interface HdrPayload {
  pointer: string;
  base64: string;
}

const pointerToken = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Every HDR payload in a report: the `hdr` of each latency summary and each entry of a
 * `histograms` map, the two places the schema's `$defs/hdr` is used.
 */
export function hdrPayloads(data: unknown, pointer = '', inHistogramMap = false): HdrPayload[] {
  if (typeof data !== 'object' || data === null) return [];
  return Object.entries(data).flatMap(([key, value]) => {
    const at = `${pointer}/${pointerToken(key)}`;
    if (typeof value === 'string') return key === 'hdr' || inHistogramMap ? [{ pointer: at, base64: value }] : [];
    return hdrPayloads(value, at, key === 'histograms');
  });
}

export interface LoadReportOptions {
  /**
   * Decodes one HDR payload and throws when it is not a histogram. The schema can only say
   * "base64"; decoding lives in metrics/, above this floor, so the caller hands it in.
   */
  decodeHdr?: (base64: string) => unknown;
}

function checkHdrPayloads(data: unknown, path: string, decodeHdr: (base64: string) => unknown): void {
  for (const { pointer, base64 } of hdrPayloads(data)) {
    try {
      decodeHdr(base64);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ConfigError(`${path}: ${pointer} is not a valid HDR histogram (${printable(reason)})`);
    }
  }
}

/**
 * Reads and validates a report.json. Throws a one-line ConfigError naming the file when
 * it cannot be read, is too large, is not UTF-8, nests too deeply, is not JSON, breaks the
 * schema, or (with `decodeHdr`) holds an HDR payload that does not decode.
 */
export async function loadReport(path: string, options: LoadReportOptions = {}): Promise<Report> {
  const data = await readJsonFile(path, { kind: 'report', source: path, jsonc: false, flag: null });
  const { valid, errors } = validateReport(data);
  if (!valid) {
    const more = errors.length > MAX_ERRORS_SHOWN ? ` (+${errors.length - MAX_ERRORS_SHOWN} more)` : '';
    throw new ConfigError(`${path}: not a valid coachbench report: ${errors.slice(0, MAX_ERRORS_SHOWN).join('; ')}${more}`);
  }
  if (options.decodeHdr) checkHdrPayloads(data, path, options.decodeHdr);
  return data as Report;
}
