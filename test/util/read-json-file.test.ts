/**
 * The one reader of coachbench's JSON input files: size, UTF-8 and nesting are checked before
 * any parser or validator sees the text, each refusal one line naming the file and, where the
 * problem has a place, line:column.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/util/errors.js';
import { MAX_JSON_DEPTH, tooDeepAt } from '../../src/util/json-depth.js';
import { JSON_FILE_MAX_BYTES, type JsonFileSpec, readJsonFile } from '../../src/util/read-json-file.js';
import { firstInvalidUtf8 } from '../../src/util/utf8.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-read-json-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const spec = (source: string, extra: Partial<JsonFileSpec> = {}): JsonFileSpec => ({
  kind: 'profile',
  source,
  jsonc: true,
  flag: null,
  ...extra,
});

async function save(name: string, content: string | Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

async function refusal(path: string, extra: Partial<JsonFileSpec> = {}): Promise<string> {
  const error = await readJsonFile(path, spec(path, extra)).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConfigError);
  const message = (error as ConfigError).message;
  expect(message).not.toContain('\n');
  return message;
}

const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('readJsonFile', () => {
  it('reads JSONC with a byte-order mark and characters beyond ASCII', async () => {
    const path = await save('good.json', '\uFEFF{\n  // ✓ comment\n  "name": "café-✓",\n}\n');
    expect(await readJsonFile(path, spec(path))).toEqual({ name: 'café-✓' });
  });

  it('refuses invalid UTF-8 with file:line:column and the byte offset, instead of reading U+FFFD', async () => {
    const bytes = Buffer.concat([Buffer.from('{\n  "apiKey": "ak_é'), Buffer.from([0xff]), Buffer.from('x"\n}\n')]);
    const path = await save('bad-utf8.json', bytes);
    const offset = Buffer.from('{\n  "apiKey": "ak_é').length;
    expect(await refusal(path)).toBe(`${path}:2:18: not valid UTF-8: byte 0xff at byte offset ${offset} (save the file as UTF-8)`);
  });

  it('names the first problem of the file: a syntax error before the bad byte, else the bad byte', async () => {
    const elf = await save('elf.json', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0xd0, 0xff]));
    expect(await refusal(elf)).toMatch(
      new RegExp(`^${elf}:1:1: not valid JSON \\(comments and trailing commas are allowed\\): unexpected character at "\\\\x7fELF`),
    );
    const later = await save('bad-byte-then-syntax.json', Buffer.concat([Buffer.from('{"a": "'), Buffer.from([0xff]), Buffer.from('", }}}')]));
    expect(await refusal(later, { jsonc: false })).toBe(`${later}:1:8: not valid UTF-8: byte 0xff at byte offset 7 (save the file as UTF-8)`);
  });

  it('refuses a file larger than its kind may be, without reading it', async () => {
    const path = await save('big.json', `{"name": "${'x'.repeat(2_000)}"}`);
    expect(await refusal(path, { maxBytes: 1_024 })).toBe(`${path}: 2KiB, larger than a profile may be (1KiB)`);
    expect(await refusal(path, { maxBytes: 1_024, flag: '--profile' })).toBe(`--profile ${path}: 2KiB, larger than a profile may be (1KiB)`);
  });

  it('refuses a device unread: not a regular file', async () => {
    expect(await refusal('/dev/zero')).toBe('/dev/zero: not a regular file but a character device; coachbench reads a profile from a regular file only');
    expect(await refusal('/dev/zero', { flag: '--profile' })).toBe(
      '--profile /dev/zero: not a regular file but a character device; coachbench reads a profile from a regular file only',
    );
    expect(JSON_FILE_MAX_BYTES.report).toBe(256 * 1024 * 1024);
  });

  it('refuses a FIFO at once, without waiting for a writer', async () => {
    const fifo = join(dir, 'profile.fifo');
    execFileSync('mkfifo', [fifo]);
    // Opening a FIFO for reading blocks until a writer comes, and none ever does here: a hang would time the test out.
    const started = performance.now();
    expect(await refusal(fifo, { kind: 'fixtures' })).toBe(`${fifo}: not a regular file but a FIFO; coachbench reads a fixtures file from a regular file only`);
    expect(performance.now() - started).toBeLessThan(2_000);
  }, 10_000);

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels at the bracket that goes too deep, and reads ${MAX_JSON_DEPTH}`, async () => {
    const ok = await save('depth-ok.json', `{"a": ${nested(MAX_JSON_DEPTH - 1)}}`);
    expect(await readJsonFile(ok, spec(ok))).toHaveProperty('a');
    const deep = await save('deep.json', `{\n  "name": "x",\n  "search": ${nested(300_000)}\n}`);
    expect(await refusal(deep)).toBe(
      `${deep}:3:${13 + MAX_JSON_DEPTH - 1}: nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays, the most coachbench reads`,
    );
  });

  it('names a file that cannot be read as a file that cannot be written is named: FLAG PATH: CODE, reason', async () => {
    const path = join(dir, 'missing.json');
    expect(await refusal(path)).toBe(`${path}: ENOENT, no such file or directory`);
    expect(await refusal(path, { flag: '--fixtures' })).toBe(`--fixtures ${path}: ENOENT, no such file or directory`);
    // A directory is refused before a read, in the words a read of it would fail with.
    expect(await refusal(dir, { kind: 'report' })).toBe(`${dir}: EISDIR, illegal operation on a directory`);
  });
});

describe('tooDeepAt', () => {
  it.each([
    ['brackets in strings', `{"a": "${'['.repeat(100)}"}`, -1],
    ['escaped quotes in strings', `{"a": "\\"${'['.repeat(100)}\\\\"}`, -1],
    ['brackets in comments', `{ // ${'['.repeat(100)}\n /* ${'{'.repeat(100)} */ "a": 1}`, -1],
    ['a string that never ends', `{"a": "${'['.repeat(100)}`, -1],
    ['depth 3 of at most 2', '{"a": {"b": [1]}}', 12],
    ['closers beyond the openers', `]]]]${nested(2)}`, -1],
  ])('%s', (_name, text, at) => {
    expect(tooDeepAt(text, 2)).toBe(at);
  });
});

describe('firstInvalidUtf8 agrees with the strict TextDecoder', () => {
  const strict = new TextDecoder('utf-8', { fatal: true });
  it.each([
    ['ASCII and 2-, 3-, 4-byte characters', [0x61, 0xc3, 0xa9, 0xe2, 0x9c, 0x93, 0xf0, 0x9f, 0x98, 0x80], null],
    ['a lone continuation byte', [0x61, 0x80], 1],
    ['an overlong 2-byte form', [0xc0, 0xaf], 0],
    ['an overlong 3-byte form', [0xe0, 0x80, 0xaf], 0],
    ['a surrogate', [0x61, 0xed, 0xa0, 0x80], 1],
    ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['a sequence cut short at the end', [0x61, 0x62, 0xe2, 0x9c], 2],
    ['a sequence cut short by ASCII', [0xe2, 0x41, 0x42], 0],
    ['0xff', [0xff], 0],
  ])('%s', (_name, bytes, offset) => {
    const array = Uint8Array.from(bytes);
    expect(firstInvalidUtf8(array)?.offset ?? null).toBe(offset);
    let refused = false;
    try {
      strict.decode(array);
    } catch {
      refused = true;
    }
    expect(refused).toBe(offset !== null);
  });
});
