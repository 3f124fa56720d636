/**
 * buildReport (src/report/build-report.ts) is the report's only author (docs/design.md §0):
 * no other file of src/ sets a field of a report after it. What a run, a capacity search or a
 * merge knows beside the total goes into buildReport as an input instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const AUTHOR = 'report/build-report.ts';
/** `report.labels = …`, `report.generator.saturated = …`, `x.verdict = …` (not `==`, `===` or `=>`). */
const ASSIGNMENT = /\b(?:report(?:\.\w+)+|\w+\.verdict)\s*=(?![=>])/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** `file:line: text` of every assignment to a report field outside the builder. */
function assignmentsOutsideBuilder(files: readonly { path: string; text: string }[]): string[] {
  return files
    .filter(({ path }) => path !== AUTHOR && !path.startsWith('reference-service/'))
    .flatMap(({ path, text }) => text.split('\n').flatMap((line, i) => (ASSIGNMENT.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])));
}

describe('the report has one author', () => {
  it('no file of src/ but build-report.ts sets a report field', () => {
    const files = sourceFiles(SRC).map((file) => ({ path: relative(SRC, file), text: readFileSync(file, 'utf8') }));
    expect(files.some(({ path }) => path === AUTHOR)).toBe(true);
    expect(assignmentsOutsideBuilder(files)).toEqual([]);
  });

  it('tells an assignment from a comparison', () => {
    const text = [
      'if (failedByPolicy) report.verdict = "fail";',
      'report.generator.saturated = true;',
      'if (report.verdict === "pass") return;',
      'const ok = (report) => report.verdict == "pass";',
    ].join('\n');
    expect(assignmentsOutsideBuilder([{ path: 'orchestration/run-session.ts', text }])).toEqual([
      'orchestration/run-session.ts:1: if (failedByPolicy) report.verdict = "fail";',
      'orchestration/run-session.ts:2: report.generator.saturated = true;',
    ]);
  });
});
