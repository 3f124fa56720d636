/**
 * Golden files for rendered output: compared byte for byte; `UPDATE_GOLDEN=1` rewrites
 * them (review the diff before committing).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** Beside the report tests that own them. */
const GOLDEN_DIR = fileURLToPath(new URL('../report/golden/', import.meta.url));

export async function expectGolden(name: string, actual: string): Promise<void> {
  const path = join(GOLDEN_DIR, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    await mkdir(GOLDEN_DIR, { recursive: true });
    await writeFile(path, actual);
    return;
  }
  if (!existsSync(path)) throw new Error(`golden file ${path} is missing; run with UPDATE_GOLDEN=1 to create it`);
  expect(actual).toBe(await readFile(path, 'utf8'));
}
