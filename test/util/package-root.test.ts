/** util/package-root.ts finds the package from wherever its module runs (src/ here; dist/ and the bundle in test/e2e). */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, PACKAGE_VERSION } from '../../src/util/package-root.js';
import { VERSION } from '../../src/util/version.js';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('the package root', () => {
  it('is the repository root, where the profiles and schemas are', () => {
    expect(PACKAGE_ROOT.href).toBe(new URL('../../', import.meta.url).href);
    expect(existsSync(new URL('profiles/smoke.json', PACKAGE_ROOT))).toBe(true);
    expect(existsSync(new URL('schemas/report.schema.json', PACKAGE_ROOT))).toBe(true);
  });

  it("gives package.json's version", () => {
    expect(PACKAGE_VERSION).toBe(packageJson.version);
    expect(VERSION).toBe(packageJson.version);
  });
});
