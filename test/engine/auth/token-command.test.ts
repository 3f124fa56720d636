/**
 * --token-command's output and failures (engine/auth/token-command.ts), with real shell
 * commands: what it may print, and that a failing command's stderr reaches the user with
 * every token masked.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_BYTES, maskedStderr, parseTokenOutput, runTokenCommand, TokenCommandError } from '../../../src/engine/auth/token-command.js';
import { registerSecret } from '../../../src/util/redact.js';

const NODE = JSON.stringify(process.execPath);
/** A shell command running `script` with this test's node. */
const nodeCommand = (script: string): string => `${NODE} -e ${JSON.stringify(script)}`;

describe('parseTokenOutput', () => {
  it('reads one token, or JSON with a default token, the coach token and tokens by user id', () => {
    expect(parseTokenOutput('  eyJhbGciOi.abc-123_x\n')).toEqual({ token: 'eyJhbGciOi.abc-123_x' });
    const update = parseTokenOutput('{"token":"t-all","coachToken":"c-1","participants":{"p-1":"t-1"}}');
    expect(update.token).toBe('t-all');
    expect(update.coachToken).toBe('c-1');
    expect([...(update.participants ?? [])]).toEqual([['p-1', 't-1']]);
  });

  it.each([
    ['', '--token-command printed no token'],
    ['two words', '--token-command printed more than one token (expected one token, or a JSON object)'],
    ['{"token": ', '--token-command printed JSON that does not parse'],
    ['{"token": "has space"}', '--token-command: "token" must be a token (printable, no spaces)'],
    ['{"participants": ["t"]}', '--token-command: "participants" must be an object of user id → token'],
    ['{"participants": {"p-1": 7}}', '--token-command: participants["p-1"] must be a token (printable, no spaces)'],
    ['{"expires": 3}', '--token-command printed JSON without "token", "coachToken" or "participants"'],
  ])('refuses %j, saying why without the value', (output, message) => {
    expect(() => parseTokenOutput(output)).toThrow(new TokenCommandError(message));
  });
});

describe('the bound on one token', () => {
  it(`takes a token of MAX_TOKEN_BYTES (${MAX_TOKEN_BYTES}), refuses one byte more, naming the limit and never the value`, () => {
    const atLimit = 'a'.repeat(MAX_TOKEN_BYTES);
    expect(parseTokenOutput(atLimit)).toEqual({ token: atLimit });
    const over = `${atLimit}b`;
    const limit = `over the 8 KiB limit for one token`;
    expect(() => parseTokenOutput(over)).toThrow(new TokenCommandError(`--token-command printed a token of 8193 bytes, ${limit}`));
    expect(() => parseTokenOutput(JSON.stringify({ coachToken: over }))).toThrow(
      new TokenCommandError(`--token-command printed a "coachToken" of 8193 bytes, ${limit}`),
    );
    expect(() => parseTokenOutput(JSON.stringify({ participants: { 'p-1': 'ok', 'p-2': over } }))).toThrow(
      new TokenCommandError(`--token-command printed participants["p-2"] of 8193 bytes, ${limit}`),
    );
  });

  it('fails the run of a command that prints a 10 MB token', async () => {
    const error = await runTokenCommand(nodeCommand('process.stdout.write("x".repeat(10 * 1024 * 1024))'), () => []).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenCommandError);
    expect((error as Error).message).toBe('--token-command printed a token of 10485760 bytes, over the 8 KiB limit for one token');
  });
});

describe('maskedStderr', () => {
  it('masks tokens it was told of, registered secrets, bearer values and token fields; keeps the last lines on one line', () => {
    registerSecret('sk-registered-0001');
    const text = 'start\nusing pt_0123456789abcdef\nauthorization: Bearer abc.def\n{"access_token": "zzz111"} token=qqq key sk-registered-0001\n';
    const line = maskedStderr(text, ['pt_0123456789abcdef']);
    expect(line).toBe('using *** / authorization: Bearer *** / {"access_token": "***"} token=*** key ***');
  });
});

describe('runTokenCommand', () => {
  it('runs the command in a shell and parses what it printed', async () => {
    await expect(runTokenCommand(`echo tok-1 | tr 1 2`, () => [])).resolves.toEqual({ token: 'tok-2' });
  });

  it('fails with its exit code and masked stderr, never the token it held or printed', async () => {
    const command = nodeCommand('console.log("pt_held_token_42"); console.error("refresh failed for pt_held_token_42, got Bearer pt_new_99"); process.exit(3)');
    const error = await runTokenCommand(command, () => ['pt_held_token_42']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenCommandError);
    expect((error as Error).message).toBe('--token-command failed (exit 3): refresh failed for ***, got Bearer ***');
  });

  it('kills a command that does not answer in time, and one still running when the run stops', async () => {
    const started = performance.now();
    await expect(runTokenCommand('sleep 7.25', () => [], { timeoutMs: 200 })).rejects.toThrow('--token-command did not answer within 200 ms and was killed');
    expect(performance.now() - started, 'the shell and its sleep were killed').toBeLessThan(2_000);
    const stop = new AbortController();
    const running = runTokenCommand('sleep 7.25', () => [], { signal: stop.signal });
    setTimeout(() => stop.abort(), 100);
    await expect(running).rejects.toThrow('--token-command was stopped with the run');
    expect(performance.now() - started).toBeLessThan(4_000);
    // Neither sleep is left behind.
    expect(spawnSync('pgrep', ['-f', '^sleep 7.25$'], { encoding: 'utf8' }).stdout.trim()).toBe('');
  });

  it('says when the command printed something unusable', async () => {
    await expect(runTokenCommand('true', () => [])).rejects.toThrow('--token-command printed no token');
  });
});
