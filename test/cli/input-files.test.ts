/**
 * coachbench's own input files, through bin/coachbench.js (built dist/), where the exit code
 * is the contract: a profile or report nested a hundred thousand levels deep, and a profile,
 * fixtures file or report with a byte that is not UTF-8, are each exit 2 with one line naming
 * the file and the place, never "internal error: Maximum call stack size exceeded" (exit 4),
 * never a nameless line, never U+FFFD read as if it were the user's text.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/util/json-depth.js';
import { runBin } from '../support/bin-helpers.js';
import { makeReport } from '../support/make-report.js';

const DEPTH = 100_000;
const nested = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
const TOO_DEEP = `nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays`;

let dir = '';
const files = { goodReport: '', deepReport: '', deepProfile: '', badUtf8Profile: '', badUtf8Report: '', badUtf8Fixtures: '' };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-input-files-'));
  const save = async (name: string, content: string | Buffer): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, content);
    return path;
  };
  const report = JSON.stringify(makeReport());
  files.goodReport = await save('good-report.json', report);
  // The report's `profile` is free-form in the schema: the deep part passes validation and
  // used to overflow the stack of the first recursive walk over the report.
  files.deepReport = await save('deep-report.json', report.replace('"profile":{', `"profile":{"search":${nested},`));
  files.deepProfile = await save('deep-profile.json', `{\n  "name": "deep",\n  "search": ${nested}\n}\n`);
  const notUtf8 = (text: string, marker: string): Buffer => {
    const [before, after] = text.split(marker) as [string, string];
    return Buffer.concat([Buffer.from(before), Buffer.from([0xc3, 0x28]), Buffer.from(after)]);
  };
  files.badUtf8Profile = await save('bad-utf8-profile.json', notUtf8('{\n  "name": "x",\n  "description": "caf@"\n}\n', '@'));
  files.badUtf8Report = await save('bad-utf8-report.json', notUtf8(report.replace(/"runId":"[^"]*"/, '"runId":"run-@"'), '@'));
  const fixtures = { apiKey: 'ak_@', participants: [{ userId: 'p-1', token: 'pt_1', chatSessionIds: ['cs-1'] }] };
  files.badUtf8Fixtures = await save('bad-utf8-fixtures.json', notUtf8(JSON.stringify(fixtures, null, 2), '@'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Runs the CLI; expects exit 2 and exactly one stderr line, which it returns. */
async function refused(args: string[]): Promise<string> {
  const result = await runBin(args, { deadlineMs: 30_000 });
  const lines = result.stderr.trim().split('\n');
  expect({ code: result.code, lines: lines.length }, result.stderr).toEqual({ code: 2, lines: 1 });
  expect(lines[0]).not.toContain('internal error');
  return lines[0] as string;
}

describe('deeply nested JSON is exit 2 naming the file, line and column', () => {
  it('plan and run -p, with a profile', async () => {
    const where = `coachbench: ${files.deepProfile}:3:${13 + MAX_JSON_DEPTH - 1}: ${TOO_DEEP}`;
    expect(await refused(['plan', files.deepProfile])).toContain(where);
    expect(await refused(['run', '-p', files.deepProfile, '--out', join(dir, 'never-run')])).toContain(where);
  }, 60_000);

  it('report, compare and merge, with a report', async () => {
    const where = new RegExp(`${files.deepReport}:1:\\d+: ${TOO_DEEP}`);
    expect(await refused(['report', files.deepReport])).toMatch(where);
    expect(await refused(['compare', files.goodReport, files.deepReport])).toMatch(where);
    expect(await refused(['merge', files.goodReport, files.deepReport, '--out', join(dir, 'merged')])).toMatch(where);
  }, 60_000);

  it('trend skips the report with the reason', async () => {
    const result = await runBin(['trend', files.deepReport, '--out', join(dir, 'trend')], { deadlineMs: 30_000 });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(TOO_DEEP);
    expect(result.stderr).not.toContain('internal error');
  }, 30_000);
});

describe('a byte that is not UTF-8 is exit 2 naming the file, the place and the byte offset', () => {
  it('in a profile', async () => {
    expect(await refused(['plan', files.badUtf8Profile])).toBe(
      `coachbench: ${files.badUtf8Profile}:3:22: not valid UTF-8: byte 0xc3 at byte offset 38 (save the file as UTF-8)`,
    );
  }, 30_000);

  it('in a report', async () => {
    expect(await refused(['report', files.badUtf8Report])).toMatch(
      new RegExp(`^coachbench: ${files.badUtf8Report}:1:\\d+: not valid UTF-8: byte 0xc3 at byte offset \\d+`),
    );
  }, 30_000);

  it("in a fixtures file's apiKey, before any request is sent", async () => {
    // Port 9 (discard) on loopback: nothing listens; the fixtures are refused before it matters.
    const line = await refused(['run', '--target', 'http://127.0.0.1:9', '--fixtures', files.badUtf8Fixtures, '--out', join(dir, 'never-run-2')]);
    expect(line).toMatch(new RegExp(`^coachbench: ${files.badUtf8Fixtures}:2:17: not valid UTF-8: byte 0xc3 at byte offset 18 `));
  }, 30_000);
});

describe('a path that is not a regular file is exit 2 naming it, at once', () => {
  it('a profile or a fixtures file that is a FIFO nobody writes to', async () => {
    const fifo = join(dir, 'input.fifo');
    execFileSync('mkfifo', [fifo]);
    // Opening a FIFO for reading waits for a writer; none comes, so only a refusal that never opens it that way ends in time.
    expect(await refused(['plan', fifo])).toBe(
      `coachbench: profile ${fifo}: not a regular file but a FIFO; coachbench reads a profile from a regular file only`,
    );
    const line = await refused(['run', '--target', 'http://127.0.0.1:9', '--fixtures', fifo, '--out', join(dir, 'never-run-3')]);
    expect(line).toBe(`coachbench: --fixtures ${fifo}: not a regular file but a FIFO; coachbench reads a fixtures file from a regular file only`);
  }, 60_000);
});
