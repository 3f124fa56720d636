/**
 * Build step (`npm run build`, after tsc): compiles every JSON Schema a run validates with
 * into ajv's standalone code, dist/validators/<name>.cjs, each with the hash of the spec it
 * came from (util/precompiled-validator.ts loads them, and compiles at run time when a hash
 * does not match). Run from dist/: `node dist/cli/build-validators.js`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { _ } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { profileValidatorSpec } from '../contract/profile/load-profile.js';
import { reportValidatorSpec } from '../contract/validate-report.js';
import { EVENT_VALIDATOR_SPECS } from '../drivers/chat/event-validator.js';
import { ajvFor, compiledValidatorPath, specHash, type ValidatorSpec } from '../util/precompiled-validator.js';
import { terminalText } from '../util/printable.js';

const SPECS: ValidatorSpec[] = [profileValidatorSpec(), reportValidatorSpec(), ...Object.values(EVENT_VALIDATOR_SPECS)];

for (const spec of SPECS) {
  const path = compiledValidatorPath(spec.name);
  // The standalone code requires the formats module by a path relative to itself.
  const formatsFrom = spec.formats ? relative(dirname(path), spec.formats.compiledModule) : null;
  const code = formatsFrom === null ? { source: true } : { source: true, formats: _`require(${`./${formatsFrom}`}).formats` };
  const ajv = ajvFor(spec, code);
  const source = standalone.default(ajv, ajv.compile(spec.schema));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${source}\nmodule.exports.schemaHash = ${JSON.stringify(specHash(spec))};\n`);
}
process.stdout.write(
  terminalText(`build-validators: ${SPECS.length} validators compiled to ${relative(process.cwd(), dirname(compiledValidatorPath('x')))}/\n`),
);
