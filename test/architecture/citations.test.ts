/**
 * The contract lives in the repository (docs/design.md §0): no tracked file points at the old
 * design file or the shared folder outside the repository, and every `docs/design.md §N`
 * citation names a heading that docs/design.md has.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONTRACT_PATH = 'docs/design.md';
/** The old design file's name, spelled in pieces so that a grep for it finds only real pointers. */
const OLD_NAME = ['DES', 'IGN'].join('');

/** Pointers outside the repository: the old design file (any spelling of it), the shared folder, the old API file. */
const OUTSIDE = [new RegExp(`\\b${OLD_NAME}\\b`), /\.\.\/shared\b/, /\/work\/shared\b/, /\bseeds\/000_/];
/** `docs/design.md §4`, `design.md §4.13` (relative, from docs/), `docs/design.md§2`. */
const CITATION = /design\.md\s*§\s*(\d+(?:\.\d+)*)/g;
/** docs/design.md cites itself as a bare `§4.13`. */
const SELF_CITATION = /§\s*(\d+(?:\.\d+)*)/g;
/** `## 4. The API...`, `### 4.13 Faults`. */
const HEADING = /^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s/;

/** The section numbers docs/design.md has headings for. */
function sectionNumbers(design: string): Set<string> {
  const numbers = new Set<string>();
  for (const line of design.split('\n')) {
    const match = HEADING.exec(line);
    if (match) numbers.add(match[1]!);
  }
  return numbers;
}

/** Every problem in `files` (path → text), as `path:line: what`. */
function citationProblems(files: ReadonlyMap<string, string>, sections: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const [path, text] of files) {
    text.split('\n').forEach((line, i) => {
      const at = `${path}:${i + 1}`;
      // The contract may tell its own history.
      if (path !== CONTRACT_PATH) {
        for (const pattern of OUTSIDE) if (pattern.test(line)) problems.push(`${at}: points outside the repository (${pattern}): ${line.trim()}`);
      }
      const citations = path === CONTRACT_PATH ? line.matchAll(SELF_CITATION) : line.matchAll(CITATION);
      for (const [, section] of citations) {
        if (!sections.has(section!)) problems.push(`${at}: cites §${section}, which is not a heading of ${CONTRACT_PATH}`);
      }
    });
  }
  return problems;
}

/** Tracked files that exist in the working tree (another engineer may be deleting one). */
function trackedFiles(): Map<string, string> {
  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  const files = new Map<string, string>();
  for (const path of paths) {
    const full = join(ROOT, path);
    if (existsSync(full)) files.set(path, readFileSync(full, 'utf8'));
  }
  return files;
}

describe('citations of the contract', () => {
  const design = readFileSync(join(ROOT, CONTRACT_PATH), 'utf8');
  const sections = sectionNumbers(design);

  it('docs/design.md has §0 to §7, with the architecture first', () => {
    for (const n of ['0', '1', '2', '3', '4', '5', '6', '7']) expect(sections, `§${n}`).toContain(n);
    expect(design.indexOf('## 0. Architecture')).toBeGreaterThan(0);
    expect(design.indexOf('## 0. Architecture')).toBeLessThan(design.indexOf('## 1. '));
  });

  it('no tracked file points outside the repository, and every citation names a heading', () => {
    const files = trackedFiles();
    expect(files.size).toBeGreaterThan(100);
    expect(files.has(CONTRACT_PATH)).toBe(true);
    expect(citationProblems(files, sections)).toEqual([]);
  });

  it('finds the old file in any spelling, the shared folder, and citations of missing sections', () => {
    // Built in pieces, so that this file's own text cites nothing that does not exist.
    const cite = (section: string): string => `docs/design.md ${'§'}${section}`;
    const files = new Map([
      ['src/a.ts', `/** The fixtures file (${OLD_NAME}.md section 3). */`],
      ['bench/b.js', `// the five ${OLD_NAME} headers`],
      ['README.md', `see ${['..', 'shared', 'x.txt'].join('/')}\nsee ${cite('4')} and ${cite('9')}`],
      ['docs/target.md', `the API (${['seeds', '000_557943bc135d12f9.txt'].join('/')}), shapes of ${cite('4.99')}`],
      [CONTRACT_PATH, `the old ${OLD_NAME}.md said so; see §2.1 and §12`],
    ]);
    expect(citationProblems(files, new Set(['2', '2.1', '4']))).toEqual([
      expect.stringMatching(/^src\/a\.ts:1: points outside/),
      expect.stringMatching(/^bench\/b\.js:1: points outside/),
      expect.stringMatching(/^README\.md:1: points outside/),
      'README.md:2: cites §9, which is not a heading of docs/design.md',
      expect.stringMatching(/^docs\/target\.md:1: points outside/),
      'docs/target.md:1: cites §4.99, which is not a heading of docs/design.md',
      'docs/design.md:1: cites §12, which is not a heading of docs/design.md',
    ]);
  });
});
