/**
 * Where the installed package lives: the folder of coachbench's package.json, beside which
 * `profiles/`, `schemas/` and `dist/validators/` are. Found by walking up from this module,
 * because this module runs at different depths: `src/util/` under vitest, `dist/util/` from
 * tsc, and a chunk of `dist/bundle/` when the CLI runs (docs/design.md, "Build").
 */

import { readFileSync } from 'node:fs';

interface PackageJson {
  readonly name?: string;
  readonly version?: string;
}

function readPackageJson(url: URL): PackageJson | null {
  try {
    return JSON.parse(readFileSync(url, 'utf8')) as PackageJson;
  } catch {
    return null;
  }
}

function findPackage(from: URL): { root: URL; json: PackageJson } {
  for (let dir = new URL('.', from); ; dir = new URL('..', dir)) {
    const json = readPackageJson(new URL('package.json', dir));
    if (json?.name === 'coachbench') return { root: dir, json };
    if (dir.pathname === '/') throw new Error(`coachbench's package.json is not in any folder above ${from.pathname}`);
  }
}

const found = findPackage(new URL(import.meta.url));

/** The package's root folder, as a URL ending in `/`. */
export const PACKAGE_ROOT: URL = found.root;

/** The package's version, from its package.json. */
export const PACKAGE_VERSION: string = found.json.version ?? '0.0.0';
