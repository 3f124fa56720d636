/**
 * Finds, reads and validates a profile: a built-in name (profiles/<name>.json) or a file.
 * Profiles are JSONC (comments and trailing commas allowed), read through read-json-file.ts
 * (size, UTF-8 and nesting checked first). Schema validation collects every problem and
 * fails once with one line (exit 2); a duration is checked by the same parser as the flags
 * (util/duration.ts), so its message is the parser's.
 */

import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv';
import { ConfigError } from '../../util/errors.js';
import { PACKAGE_ROOT } from '../../util/package-root.js';
import { loadValidator, type ValidatorSpec } from '../../util/precompiled-validator.js';
import { printable } from '../../util/printable.js';
import { readJsonFile } from '../../util/read-json-file.js';
import type { Profile } from './profile.js';
import type { ProfileFile } from './profile-file.js';
import { formatProblem, formats } from './profile-formats.js';
import { resolveProfile } from './resolve-profile.js';

export const PROFILES_DIR = new URL('profiles/', PACKAGE_ROOT);
const SCHEMA_URL = new URL('schemas/profile.schema.json', PACKAGE_ROOT);

/** The profile schema, validated with every problem collected (the validator compiled at build time when it matches). */
export function profileValidatorSpec(): ValidatorSpec {
  return {
    name: 'profile',
    dialect: '2020-12',
    // verbose: format errors carry the offending value, so that the parser can say what is wrong with it.
    options: { allErrors: true, strict: false, verbose: true },
    schema: JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as AnySchemaObject,
    // The bundle's entry of profile-formats.ts (scripts/build.js): the compiled validator then
    // shares the CLI's instance of the module instead of loading dist/'s copy beside it.
    formats: { definitions: formats, compiledModule: fileURLToPath(new URL('dist/bundle/profile-formats.js', PACKAGE_ROOT)) },
  };
}

let validator: ValidateFunction | undefined;

function getValidator(): ValidateFunction {
  validator ??= loadValidator(profileValidatorSpec());
  return validator;
}

function describe(error: ErrorObject): string {
  const path = error.instancePath || '/';
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'format' && typeof error.data === 'string' && typeof params.format === 'string') {
    const problem = formatProblem(params.format, error.data, path);
    if (problem) return problem;
  }
  const extra = typeof params.additionalProperty === 'string' ? ` "${params.additionalProperty}"` : '';
  const unevaluated = typeof params.unevaluatedProperty === 'string' ? ` "${params.unevaluatedProperty}"` : '';
  return `${path} ${error.message ?? 'is invalid'}${extra}${unevaluated}`;
}

/** Validates parsed JSON against schemas/profile.schema.json; throws one ConfigError listing every problem. */
export function validateProfileFile(data: unknown, source: string): ProfileFile {
  const validate = getValidator();
  if (validate(data)) return data as ProfileFile;
  const problems = (validate.errors ?? []).map(describe);
  // oneOf failures repeat each branch's complaint; one line per path is enough.
  const unique = [...new Set(problems)].filter((line) => !line.endsWith('must match exactly one schema in oneOf') || problems.length === 1);
  throw new ConfigError(`invalid profile ${source}: ${unique.join('; ')}`);
}

/**
 * Resolves `--profile NAME|FILE` to a path: an existing file wins, else a built-in name.
 * `given` is how the user gave it (`--profile` to run, the `profile` argument to plan), which an error names.
 */
export function profilePath(nameOrFile: string, given = '--profile'): string {
  if (existsSync(nameOrFile)) return nameOrFile;
  const builtIn = new URL(`${nameOrFile}.json`, PROFILES_DIR);
  if (/^[A-Za-z0-9._-]+$/.test(nameOrFile) && existsSync(builtIn)) return fileURLToPath(builtIn);
  throw new ConfigError(`${given} "${printable(nameOrFile)}": no such file or built-in profile (see coachbench profiles)`);
}

/** The profile `nameOrFile`, validated and resolved; `given` as for profilePath. */
export async function loadProfile(nameOrFile: string, given = '--profile'): Promise<Profile> {
  const path = profilePath(nameOrFile, given);
  const profilesDir = fileURLToPath(PROFILES_DIR);
  const source = path.startsWith(profilesDir) ? `profiles/${path.slice(profilesDir.length)}` : path;
  const data = await readJsonFile(path, { kind: 'profile', source, jsonc: true, flag: given });
  return withPathsFrom(dirname(path), resolveProfile(validateProfileFile(data, source), source));
}

/** A profile's certificate paths are relative to the profile file, as a reader of the file expects. */
function withPathsFrom(dir: string, profile: Profile): Profile {
  const at = (file: string | null): string | null => (file === null ? null : resolvePath(dir, file));
  profile.tls = { ...profile.tls, ca: profile.tls.ca.map((file) => resolvePath(dir, file)), cert: at(profile.tls.cert), key: at(profile.tls.key) };
  return profile;
}

/** Names of the built-in profiles, for `coachbench profiles`. */
export async function builtInProfiles(): Promise<string[]> {
  const entries = await readdir(PROFILES_DIR);
  return entries
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}
