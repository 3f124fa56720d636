/**
 * JSON Schema validators compiled at build time: `npm run build` turns each spec into ajv's
 * standalone code (dist/validators/<name>.cjs, written by scripts/build.js), so a run loads a
 * plain function instead of loading ajv and compiling the schema on every start (what that
 * saves: docs/benchmarks.md, "Start-up machinery").
 *
 * Each compiled module records a hash of the spec it came from. When the module is missing or
 * its hash differs (vitest without a build, a schema edited since the last build), the
 * validator is compiled now with ajv, as it was before: a stale build is slower, never wrong.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv, AnySchemaObject, Format, Options, ValidateFunction } from 'ajv';
import { PACKAGE_ROOT } from './package-root.js';

export interface ValidatorSpec {
  /** The compiled module's file name: dist/validators/<name>.cjs. */
  readonly name: string;
  readonly dialect: '2020-12' | 'draft-07';
  readonly options: Readonly<Pick<Options, 'allErrors' | 'verbose' | 'strict' | 'allowUnionTypes'>>;
  readonly schema: AnySchemaObject;
  /**
   * Custom string formats: `definitions` for compiling now, and the compiled module's path of
   * a module that exports the same object as `formats`, for the standalone code to require.
   */
  readonly formats?: { readonly definitions: Readonly<Record<string, Format>>; readonly compiledModule: string };
}

const require = createRequire(import.meta.url);

/** Where the compiled validator of `name` lives, whether this module runs from src/ (under vitest), dist/ or the bundle. */
export function compiledValidatorPath(name: string): string {
  return fileURLToPath(new URL(`dist/validators/${name}.cjs`, PACKAGE_ROOT));
}

/** A hash of everything the compiled code depends on: dialect, options, schema, format names. */
export function specHash(spec: ValidatorSpec): string {
  const formats = Object.keys(spec.formats?.definitions ?? {}).sort();
  return createHash('sha256')
    .update(JSON.stringify([spec.dialect, spec.options, spec.schema, formats]))
    .digest('hex');
}

/** An ajv instance for `spec`, with its formats; `code` options are the build's. */
export function ajvFor(spec: ValidatorSpec, code?: Options['code']): Ajv {
  // Loaded here, not at the top: a run with every validator compiled never loads ajv.
  const AjvClass: typeof Ajv = spec.dialect === '2020-12' ? require('ajv/dist/2020').Ajv2020 : require('ajv').Ajv;
  const ajv = new AjvClass({ ...spec.options, ...(code ? { code } : {}) });
  for (const [name, format] of Object.entries(spec.formats?.definitions ?? {})) ajv.addFormat(name, format);
  return ajv;
}

interface CompiledModule {
  default: ValidateFunction;
  schemaHash: string;
}

/** The validator of `spec`: the build's compiled code when it matches the spec, else compiled now. */
export function loadValidator(spec: ValidatorSpec): ValidateFunction {
  const path = compiledValidatorPath(spec.name);
  if (existsSync(path)) {
    const compiled = require(path) as CompiledModule;
    if (compiled.schemaHash === specHash(spec)) return compiled.default;
  }
  return ajvFor(spec).compile(spec.schema);
}
