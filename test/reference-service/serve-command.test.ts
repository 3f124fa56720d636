import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../src/cli/serve.js';
import { loadFixtures } from '../../src/contract/fixtures.js';
import { selfSignedIdentity } from '../../src/reference-service/http/tls-identity.js';
import { resolveServeOptions, serveUntil } from '../../src/reference-service/serve-main.js';
import { ConfigError } from '../../src/util/errors.js';
import { eventually } from '../support/target-helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-serve-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('serve flags', () => {
  it('maps the flags to target options with defaults', () => {
    expect(resolveServeOptions({})).toEqual({ options: { host: '127.0.0.1', port: 7080, faults: [] } });
    const resolved = resolveServeOptions({
      port: '0',
      keepalive: '250ms',
      participants: '12',
      sessions: '2',
      seed: '9',
      fixturesOut: 'f.json',
      fault: ['drop=5', 'latency=20ms'],
    });
    expect(resolved).toEqual({
      options: {
        host: '127.0.0.1',
        port: 0,
        keepAliveMs: 250,
        participants: 12,
        sessionsPerParticipant: 2,
        seed: 9,
        faults: [
          { name: 'drop', value: 0.05 },
          { name: 'latency', value: 20 },
        ],
      },
      fixturesOut: 'f.json',
    });
  });

  it.each([
    [{ port: '99999' }, '--port: "99999" must be an integer in 0..65535'],
    [{ port: 'http' }, '--port: "http" must be an integer in 0..65535'],
    [{ participants: '0' }, '--participants: "0" must be an integer in 1..1000000'],
    [{ participants: '2.5' }, '--participants: "2.5" must be an integer in 1..1000000'],
    [{ keepalive: 'often' }, /--keepalive: "often" is not a duration/],
    [{ keepalive: '5ms' }, /--keepalive: must be at least 10ms/],
    [{ fault: ['drop=150'] }, '--fault drop=150: percentage must be 0..100'],
    [{ fixturesOut: '' }, '--fixtures-out: needs a file path'],
    [{ logTraces: '' }, '--log-traces: needs a file path'],
    [{ logTraces: '/nonexistent-coachbench/traces.jsonl' }, '--log-traces /nonexistent-coachbench/traces.jsonl: ENOENT, no such file or directory'],
  ])('refuses %j with one ConfigError line', (flags, message) => {
    expect(() => resolveServeOptions(flags)).toThrow(ConfigError);
    expect(() => resolveServeOptions(flags)).toThrow(message);
  });
});

describe('serve TLS files: one line naming the flag and the file, before the target starts', () => {
  const file = (name: string) => join(dir, name);
  beforeAll(async () => {
    const [own, other] = await Promise.all([selfSignedIdentity(['127.0.0.1']), selfSignedIdentity(['127.0.0.1'])]);
    await Promise.all([
      writeFile(file('own.crt'), own.cert),
      writeFile(file('own.key'), own.key),
      writeFile(file('other.key'), other.key),
      writeFile(file('notpem.txt'), 'hello\n'),
      writeFile(file('garbled.crt'), '-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n'),
    ]);
  });

  it('a matching pair is taken', () => {
    const tls = resolveServeOptions({ tlsCert: file('own.crt'), tlsKey: file('own.key') }).options.tls;
    expect(tls).toMatchObject({ cert: expect.stringContaining('BEGIN CERTIFICATE'), key: expect.stringContaining('PRIVATE KEY') });
  });

  it.each<[Record<string, string>, string | RegExp]>([
    [{ tlsCert: 'notpem.txt', tlsKey: 'notpem.txt' }, '--tls-cert notpem.txt: not a PEM file (no "-----BEGIN ...-----" block of the right kind)'],
    [{ tlsCert: 'own.crt', tlsKey: 'notpem.txt' }, '--tls-key notpem.txt: not a PEM file (no "-----BEGIN ...-----" block of the right kind)'],
    [{ tlsCert: 'own.key', tlsKey: 'own.crt' }, '--tls-cert own.key: not a PEM file (no "-----BEGIN ...-----" block of the right kind)'],
    [
      { tlsCert: 'own.crt', tlsKey: 'own.key', tlsClientCa: 'notpem.txt' },
      '--tls-client-ca notpem.txt: not a PEM file (no "-----BEGIN ...-----" block of the right kind)',
    ],
    [{ tlsCert: 'missing.crt', tlsKey: 'own.key' }, '--tls-cert missing.crt: ENOENT, no such file or directory'],
    [{ tlsCert: 'garbled.crt', tlsKey: 'own.key' }, /^--tls-cert garbled\.crt: \S/],
    [{ tlsCert: 'own.crt', tlsKey: 'other.key' }, /^--tls-key other\.key: not the key of --tls-cert own\.crt \(key values mismatch\)$/],
  ])('%j', (names, message) => {
    const flags = Object.fromEntries(Object.entries(names).map(([flag, name]) => [flag, file(name)]));
    let thrown: unknown;
    try {
      resolveServeOptions(flags);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const line = (thrown as Error).message.replaceAll(`${dir}/`, '');
    expect(line.split('\n')).toHaveLength(1);
    if (typeof message === 'string') expect(line).toBe(message);
    else expect(line).toMatch(message);
  });
});

describe('serve', () => {
  it('prints one line, writes a valid fixtures file, serves streams and closes on abort', async () => {
    const file = join(dir, 'fixtures.json');
    const lines: string[] = [];
    const controller = new AbortController();
    const done = serveUntil({ port: '0', keepalive: '100ms', participants: '5', fixturesOut: file, fault: ['duplicate=1'] }, controller.signal, (l) =>
      lines.push(l),
    );
    expect(await eventually(() => lines.length === 1)).toBe(true);
    const line = lines[0] as string;
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1] as string;
    expect(line).toContain(`fixtures ${file}`);
    expect(line).toContain('keepalive 100ms');
    expect(line).toContain('faults duplicate=1%');
    const fixtures = await loadFixtures(file);
    expect(line).not.toContain(fixtures.apiKey as string);
    expect(fixtures.participants).toHaveLength(5);
    expect(((await stat(file)).mode & 0o777).toString(8)).toBe('600');
    const p = fixtures.participants[0]!;
    const res = await request(`${url}/api/v1/participants/${p.userId}/chat_sessions/${p.chatSessionIds[0]}/stream`, {
      headers: { authorization: `Bearer ${p.token}`, 'x-api-key': fixtures.apiKey as string },
    });
    expect(res.statusCode).toBe(200);
    const first = await new Promise<string>((resolve) => res.body.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    expect(first).toBe('data: {"eventType":"KEEP_ALIVE","payload":null}\n\n');
    controller.abort();
    expect(await done).toBe(0);
    await expect(request(`${url}/api/v1/tags`)).rejects.toThrow();
  });

  it('--no-accel-buffering-header: streams without X-Accel-Buffering, and the line says so', async () => {
    const file = join(dir, 'fixtures-no-accel.json');
    const lines: string[] = [];
    const headerOf = async (flags: { accelBufferingHeader?: boolean }): Promise<string | string[] | undefined> => {
      lines.length = 0;
      const controller = new AbortController();
      const done = serveUntil({ port: '0', participants: '2', fixturesOut: file, ...flags }, controller.signal, (l) => lines.push(l));
      expect(await eventually(() => lines.length === 1)).toBe(true);
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(lines[0] as string)?.[1] as string;
      const fixtures = await loadFixtures(file);
      const p = fixtures.participants[0]!;
      const res = await request(`${url}/api/v1/participants/${p.userId}/stream`, {
        headers: { authorization: `Bearer ${p.token}`, 'x-api-key': fixtures.apiKey as string },
      });
      expect(res.statusCode).toBe(200);
      res.body.destroy();
      controller.abort();
      expect(await done).toBe(0);
      return res.headers['x-accel-buffering'];
    };
    expect(await headerOf({})).toBe('no');
    expect(lines[0]).not.toContain('X-Accel-Buffering');
    expect(await headerOf({ accelBufferingHeader: false })).toBeUndefined();
    expect(lines[0]).toContain('streams without X-Accel-Buffering: no (a proxy may buffer them)');
  });

  it('the command stops on SIGTERM and returns 0 without calling process.exit', async () => {
    const code = serveCommand.run({ port: '0', participants: '2' });
    // Let it start listening and install its handlers before the signal.
    expect(await eventually(() => process.listenerCount('SIGTERM') === 1)).toBe(true);
    process.emit('SIGTERM');
    expect(await code).toBe(0);
    expect(process.listenerCount('SIGTERM')).toBe(0);
    expect(process.listenerCount('SIGINT')).toBe(0);
  });
});
