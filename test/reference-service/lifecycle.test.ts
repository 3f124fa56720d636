/** startTarget options, deterministic seeding and close(). */
import { describe, expect, it } from 'vitest';
import { startTarget } from '../../src/reference-service/start-target.js';
import { ConfigError, StartError } from '../../src/util/errors.js';
import { call, openStream, participant, startTestTarget } from '../support/target-helpers.js';

describe('seeding', () => {
  it('is deterministic for a seed and differs between seeds', async () => {
    const [a, b, c] = await Promise.all([
      startTarget({ seed: 7, participants: 3 }),
      startTarget({ seed: 7, participants: 3 }),
      startTarget({ seed: 8, participants: 3 }),
    ]);
    try {
      expect(a.fixtures).toEqual(b.fixtures);
      expect(a.connectorToken).toBe(b.connectorToken);
      expect(c.fixtures.apiKey).not.toBe(a.fixtures.apiKey);
      expect(c.fixtures.participants[0]?.token).not.toBe(a.fixtures.participants[0]?.token);
      expect(a.fixtures.participants.map((p) => p.userId)).toEqual(['p-000001', 'p-000002', 'p-000003']);
      expect(a.fixtures.participants[1]?.chatSessionIds).toEqual(['cs-000002-1', 'cs-000002-2', 'cs-000002-3']);
      expect(new Set(a.fixtures.participants.map((p) => p.token)).size).toBe(3);
      expect(a.keepAliveMs).toBe(15_000);
      expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('honours apiKey, sessionsPerParticipant and locks every 3rd session', async () => {
    const t = await startTarget({ apiKey: 'ak_custom_key', participants: 2, sessionsPerParticipant: 6 });
    try {
      expect(t.fixtures.apiKey).toBe('ak_custom_key');
      const p = participant(t, 1);
      expect(p.chatSessionIds).toHaveLength(6);
      const locked = [];
      for (const id of p.chatSessionIds)
        locked.push(((await call(t, 'GET', `/participants/${p.userId}/chat_sessions/${id}`)).body as { locked: boolean }).locked);
      expect(locked).toEqual([false, false, true, false, false, true]);
    } finally {
      await t.close();
    }
  });

  it.each([
    [{ keepAliveMs: 5 }, /keepalive/],
    [{ participants: 0 }, /participants/],
    [{ port: 70_000 }, /port/],
    [{ faults: ['drop=150'] }, /drop=150: percentage must be 0..100/],
  ])('refuses %j with a ConfigError', async (options, message) => {
    await expect(startTarget(options)).rejects.toThrow(ConfigError);
    await expect(startTarget(options)).rejects.toThrow(message);
  });

  it('rejects with a StartError when the port is taken', async () => {
    const t = await startTestTarget();
    try {
      await expect(startTarget({ port: t.port })).rejects.toThrow(StartError);
    } finally {
      await t.close();
    }
  });
});

describe('what a target says of itself', () => {
  it('is the same for one process and for a cluster, an IPv6 address bracketed in its URL', async () => {
    const [single, cluster] = await Promise.all([
      startTarget({ host: '::1', seed: 5, participants: 2 }),
      startTarget({ host: '::1', seed: 5, participants: 2, workers: 2 }),
    ]);
    try {
      for (const target of [single, cluster]) {
        expect(target.url).toBe(`http://[::1]:${target.port}`);
        expect(target.certificate).toBeNull();
        expect((await call(target, 'GET', `/participants/${target.fixtures.participants[0]?.userId}`)).status).toBe(200);
      }
      expect(cluster.fixtures.participants.map((p) => p.userId)).toEqual(single.fixtures.participants.map((p) => p.userId));
      expect(cluster.fixtures.apiKey).toBe(single.fixtures.apiKey);
      expect(cluster.connectorToken).toBe(single.connectorToken);
      expect(cluster.keepAliveMs).toBe(single.keepAliveMs);
    } finally {
      await Promise.all([single.close(), cluster.close()]);
    }
  }, 30_000);
});

describe('close()', () => {
  it('ends open streams, drops pending delayed answers and resolves promptly', async () => {
    const t = await startTestTarget({ keepAliveMs: 100, faults: ['latency=5000'] });
    const p = participant(t);
    const streams = await Promise.all(p.chatSessionIds.map((id) => openStream(t, `/participants/${p.userId}/chat_sessions/${id}/stream`, p.token)));
    const pending = call(t, 'GET', `/participants/${p.userId}`, { token: p.token }).then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.stats().openStreams).toBe(3);
    const started = performance.now();
    await t.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    await Promise.all(streams.map((s) => s.ended));
    expect(await pending).toBe('cut');
    expect(t.stats()).toMatchObject({ openStreams: 0, streamHandles: 0 });
    await expect(call(t, 'GET', '/tags')).rejects.toThrow();
    // close() is idempotent.
    await t.close();
  });
});
