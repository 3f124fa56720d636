/**
 * Finds, reads and validates a profile: a built-in name (profiles/<name>.json) or a file.
 * Schema validation collects every problem and fails once with one line (exit 2).
 */

import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ConfigError } from '../../util/errors.js';
import type { Profile } from './profile.js';
import type { ProfileFile } from './profile-file.js';
import { resolveProfile } from './resolve-profile.js';

const PACKAGE_ROOT = new URL('../../../', import.meta.url);
export const PROFILES_DIR = new URL('profiles/', PACKAGE_ROOT);
const SCHEMA_URL = new URL('schemas/profile.schema.json', PACKAGE_ROOT);

let validator: ((data: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string; params: Record<string, unknown> }> | null };

function getValidator(): typeof validator {
  if (!validator) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    validator = ajv.compile(JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as object);
  }
  return validator;
}

/** Validates parsed JSON against schemas/profile.schema.json; throws one ConfigError listing every problem. */
export function validateProfileFile(data: unknown, source: string): ProfileFile {
  const validate = getValidator();
  if (validate(data)) return data as ProfileFile;
  const problems = (validate.errors ?? []).map((error) => {
    const path = error.instancePath || '/';
    const extra = typeof error.params.additionalProperty === 'string' ? ` "${error.params.additionalProperty}"` : '';
    const unevaluated = typeof error.params.unevaluatedProperty === 'string' ? ` "${error.params.unevaluatedProperty}"` : '';
    return `${path} ${error.message ?? 'is invalid'}${extra}${unevaluated}`;
  });
  // oneOf failures repeat each branch's complaint; one line per path is enough.
  const unique = [...new Set(problems)].filter((line) => !line.endsWith('must match exactly one schema in oneOf') || problems.length === 1);
  throw new ConfigError(`invalid profile ${source}: ${unique.join('; ')}`);
}

/** Resolves `--profile NAME|FILE` to a path: an existing file wins, else a built-in name. */
export function profilePath(nameOrFile: string): string {
  if (existsSync(nameOrFile)) return nameOrFile;
  const builtIn = new URL(`${nameOrFile}.json`, PROFILES_DIR);
  if (/^[A-Za-z0-9._-]+$/.test(nameOrFile) && existsSync(builtIn)) return builtIn.pathname;
  throw new ConfigError(`--profile ${nameOrFile}: no such file or built-in profile (see coachbench profiles)`);
}

export async function loadProfile(nameOrFile: string): Promise<Profile> {
  const path = profilePath(nameOrFile);
  const source = path.startsWith(PROFILES_DIR.pathname) ? `profiles/${path.slice(PROFILES_DIR.pathname.length)}` : path;
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`profile ${source}: ${error instanceof SyntaxError ? `not valid JSON (${error.message})` : 'cannot read'}`);
  }
  return resolveProfile(validateProfileFile(data, source), source);
}

/** Names of the built-in profiles, for `coachbench profiles`. */
export async function builtInProfiles(): Promise<string[]> {
  const entries = await readdir(PROFILES_DIR);
  return entries
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}
