/**
 * One printable path (docs/design.md §2.10): every write to stdout or stderr in src/ passes
 * its text through util/printable.ts (terminalText, or printableJson for JSON), so no
 * string from a target, a report file or a flag reaches a terminal raw. The reference
 * service is the target, not the suite, and keeps its own logs. The progress line writes to
 * the stream it is given (progress.ts), which this scan cannot tell apart from a file: it
 * escapes its text itself.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const EXEMPT = ['reference-service/'];

/** A write to a process stream, or console output: what must start with a printable call. */
const WRITE = /\b(?:stdout|stderr)\.write\(|\bconsole\.(?:log|error|warn|info|debug)\(/g;
const PRINTABLE_ARGUMENT = /^\s*(?:terminalText|printableJson)\(|^\s*`\$\{printableJson\(/;

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => join(entry.parentPath, entry.name));
}

/** `file:line` of every write in `text` whose argument is not a printable call. */
function rawWrites(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(WRITE)) {
    const argument = text.slice(match.index + match[0].length, match.index + match[0].length + 200);
    if (!PRINTABLE_ARGUMENT.test(argument)) found.push(`${file}:${text.slice(0, match.index).split('\n').length}`);
  }
  return found;
}

describe('every terminal write goes through util/printable.ts', () => {
  it('finds no raw write to stdout or stderr in src/', async () => {
    const raw: string[] = [];
    for (const path of await sourceFiles(SRC)) {
      const file = relative(SRC, path);
      if (EXEMPT.some((prefix) => file.startsWith(prefix))) continue;
      raw.push(...rawWrites(file, await readFile(path, 'utf8')));
    }
    expect(raw).toEqual([]);
  });

  it('would find one', () => {
    // Source text, not templates: the scan reads code.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text under test
    expect(rawWrites('x.ts', 'process.stderr.write(`coachbench: ${detail}\\n`);\nstream.stderr.write(terminalText(x));')).toEqual(['x.ts:1']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text under test
    expect(rawWrites('y.ts', "console.log('a');\nprocess.stdout.write(`${printableJson(plan)}\\n`);")).toEqual(['y.ts:1']);
  });
});
