/**
 * CONTRIBUTING.md walks a newcomer from `coachbench run` to the code that measures a number,
 * and says which files a new metric, check or scenario touches: every repository path it
 * names in backticks must exist, so the walk does not rot when a file moves.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** `src/cli/run.ts`, `test/metrics/`, `schemas/report.schema.json`: a path from the repository root, no globs. */
const PATH = /`((?:src|test|bin|scripts|docs|schemas|bench|deploy)\/[\w./-]*)`/g;

/** The repository paths a Markdown text names in backticks. */
function namedPaths(text: string): string[] {
  return [...new Set([...text.matchAll(PATH)].map((match) => match[1]!))];
}

/** Those of them the repository does not have. */
const missingPaths = (text: string): string[] => namedPaths(text).filter((path) => !existsSync(join(ROOT, path)));

describe('CONTRIBUTING.md', () => {
  const text = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');

  it('names only files and folders that exist', () => {
    const paths = namedPaths(text);
    expect(paths).toEqual(expect.arrayContaining(['src/cli/run.ts', 'src/report/build-report.ts', 'src/drivers/chat/resume-watch.ts']));
    expect(missingPaths(text)).toEqual([]);
  });

  it('tells a moved file apart, and leaves globs and bare file names alone', () => {
    expect(namedPaths('see `src/cli/run.ts` and `src/metrics/*-summary.ts`, not `run-session.ts`')).toEqual(['src/cli/run.ts']);
    expect(missingPaths('`src/cli/run.ts` then `src/cli/run-command.ts`')).toEqual(['src/cli/run-command.ts']);
  });
});
