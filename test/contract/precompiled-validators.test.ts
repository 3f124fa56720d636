/**
 * The validators compiled at build time (util/precompiled-validator.ts, written by
 * scripts/build.js during `npm run build`) are what a run uses, and they judge
 * exactly as ajv compiling the same schema at run time does. A spec that no longer matches
 * its compiled module (a schema edited since the build) is compiled at run time instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { PROFILES_DIR, profileValidatorSpec } from '../../src/contract/profile/load-profile.js';
import { reportValidatorSpec } from '../../src/contract/validate-report.js';
import { EVENT_VALIDATOR_SPECS } from '../../src/drivers/chat/event-validator.js';
import { ajvFor, compiledValidatorPath, loadValidator, specHash, type ValidatorSpec } from '../../src/util/precompiled-validator.js';

const require = createRequire(import.meta.url);
const SPECS: ValidatorSpec[] = [profileValidatorSpec(), reportValidatorSpec(), ...Object.values(EVENT_VALIDATOR_SPECS)];

/** The compiled module of a spec, as the build wrote it. */
const compiledModule = (spec: ValidatorSpec) => require(compiledValidatorPath(spec.name)) as { default: (data: unknown) => boolean; schemaHash: string };

describe('validators compiled at build time', () => {
  it.each(SPECS.map((spec) => [spec.name, spec] as const))('%s: compiled by the build from the current schema', (_name, spec) => {
    expect(existsSync(compiledValidatorPath(spec.name)), 'run npm run build').toBe(true);
    expect(compiledModule(spec).schemaHash).toBe(specHash(spec));
    expect(loadValidator(spec)).toBe(compiledModule(spec).default);
  });

  it('judge profiles, valid and broken, exactly as ajv compiling the schema now', async () => {
    const spec = profileValidatorSpec();
    const now = ajvFor(spec).compile(spec.schema);
    const built = loadValidator(spec);
    const files = (await readdir(PROFILES_DIR)).filter((f) => f.endsWith('.json'));
    const profiles: unknown[] = files.map((f) => JSON.parse(readFileSync(new URL(f, PROFILES_DIR), 'utf8')));
    expect(profiles.length).toBeGreaterThanOrEqual(4);
    const broken: unknown[] = [
      { name: 'x', duration: '30 parsecs' },
      { name: 'x', keepAliveTolerance: 'lots' },
      { name: 'x', chatStreams: { participants: -1, rampPerSec: 'fast' }, extra: true },
      { name: 'x', photoUpload: { enabled: true, model: 'both', imageSizes: [] } },
      { name: 'x', thresholds: [42, { threshold: 'chatStreams.dropped == 0', abortOnFail: 'yes' }] },
      [],
      null,
    ];
    for (const profile of [...profiles, ...broken]) {
      expect(built(profile), JSON.stringify(profile)).toBe(now(profile));
      expect(built.errors ?? null).toEqual(now.errors ?? null);
    }
    expect(profiles.every((p) => built(p))).toBe(true);
    expect(broken.some((p) => built(p))).toBe(false);
  });

  it('judge event payloads as ajv compiling the schema now', () => {
    const message = { id: 'm1', chatSessionId: 's1', senderId: 'u1', senderType: 'PARTICIPANT', text: 'hi', sentAt: '2026-11-25T12:00:00Z' };
    const payloads: unknown[] = [[message], [], [{ ...message, text: 7 }], { sessionId: 's1' }, null, [{ id: 'm1' }]];
    for (const spec of Object.values(EVENT_VALIDATOR_SPECS)) {
      const now = ajvFor(spec).compile(spec.schema);
      const built = loadValidator(spec);
      for (const payload of payloads) expect(built(payload), `${spec.name} ${JSON.stringify(payload)}`).toBe(now(payload));
    }
    expect(loadValidator(EVENT_VALIDATOR_SPECS.messageSent)([message])).toBe(true);
  });

  it('a schema changed since the build is compiled now, and enforced as changed', () => {
    const spec = profileValidatorSpec();
    const stricter: ValidatorSpec = { ...spec, schema: { ...spec.schema, required: ['name', 'duration'] } };
    expect(specHash(stricter)).not.toBe(compiledModule(spec).schemaHash);
    const validate = loadValidator(stricter);
    expect(validate).not.toBe(compiledModule(spec).default);
    expect(validate({ name: 'x' })).toBe(false);
    expect(validate.errors?.[0]?.params).toEqual({ missingProperty: 'duration' });
    expect(validate({ name: 'x', duration: '1s' })).toBe(true);
    expect(compiledModule(spec).default({ name: 'x' })).toBe(true);
  });

  it('a validator the build never compiled is compiled now', () => {
    const validate = loadValidator({ name: 'never-built', dialect: 'draft-07', options: { allErrors: false }, schema: { type: 'integer', minimum: 3 } });
    expect([validate(3), validate(2), validate('3')]).toEqual([true, false, false]);
  });
});
