/**
 * Validates report.json against schemas/report.schema.json, so that `report`, `compare`
 * and `merge` refuse a file they would misread (exit 2) instead of rendering nonsense.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { ConfigError } from '../util/errors.js';
import { REPORT_SCHEMA_VERSION, type Report } from './report.js';

/** Where the schema lives; the same relative path holds from src/report and dist/report. */
export const REPORT_SCHEMA_URL = new URL('../../schemas/report.schema.json', import.meta.url);

let compiled: ValidateFunction | null = null;

function validator(): ValidateFunction {
  if (compiled === null) {
    const schema = JSON.parse(readFileSync(REPORT_SCHEMA_URL, 'utf8')) as object;
    compiled = new Ajv2020({ allErrors: true, allowUnionTypes: true }).compile(schema);
  }
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

/**
 * Reads and validates a report.json. Throws a one-line ConfigError naming the file when
 * it cannot be read, is not JSON, or breaks the schema.
 */
export async function loadReport(path: string): Promise<Report> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(`${path}: cannot read report (${code})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${path}: not valid JSON (${(error as Error).message.split('\n')[0]})`);
  }
  const { valid, errors } = validateReport(data);
  if (!valid) {
    const more = errors.length > MAX_ERRORS_SHOWN ? ` (+${errors.length - MAX_ERRORS_SHOWN} more)` : '';
    throw new ConfigError(`${path}: not a valid coachbench report: ${errors.slice(0, MAX_ERRORS_SHOWN).join('; ')}${more}`);
  }
  return data as Report;
}
