import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { call, FIVE_HEADERS, participant, startTestTarget } from '../support/target-helpers.js';

let target: RunningTarget;
beforeAll(async () => {
  target = await startTestTarget();
});
afterAll(() => target.close());

const NEW_AND_LINK = '/admin/tags/new_and_link/participant';

async function tagsOf(userId: string): Promise<string[]> {
  const result = await call(target, 'GET', `/participants/${userId}`);
  return (result.body as { tags: Array<{ name: string }> }).tags.map((t) => t.name).sort();
}

describe('tag create-and-link', () => {
  it('creates new tags, links them, returns the created ids only, with the five headers', async () => {
    const p = participant(target);
    const first = await call(target, 'POST', NEW_AND_LINK, { json: { participantId: p.userId, tags: ['sleep', 'steps'] } });
    expect(first.status).toBe(200);
    for (const name of FIVE_HEADERS) expect(first.headers[name], name).toBeTruthy();
    const created = first.body as string[];
    expect(created).toHaveLength(2);
    for (const id of created) expect(typeof id).toBe('string');
    expect(await tagsOf(p.userId)).toEqual(['sleep', 'steps']);

    // `sleep` exists: ignored (not created, not returned), the new name is created.
    const second = await call(target, 'POST', NEW_AND_LINK, {
      token: target.connectorToken as string,
      json: { participantId: participant(target, 1).userId, tags: ['sleep', 'water', 'water'] },
    });
    expect(second.status).toBe(200);
    const again = second.body as string[];
    expect(again).toHaveLength(1);
    expect(created).not.toContain(again[0]);
    // Existing names are still linked to the participant named in the call.
    expect(await tagsOf(participant(target, 1).userId)).toEqual(['sleep', 'water']);

    const repeat = await call(target, 'POST', NEW_AND_LINK, { json: { participantId: p.userId, tags: ['sleep', 'steps'] } });
    expect(repeat.body).toEqual([]);
  });

  it('creates a name exactly once under concurrent requests', async () => {
    const p = participant(target, 2);
    const results = await Promise.all(
      Array.from({ length: 40 }, () => call(target, 'POST', NEW_AND_LINK, { json: { participantId: p.userId, tags: ['race-tag', 'race-tag-2'] } })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const ids = results.flatMap((r) => r.body as string[]);
    // Each new name's id appears in exactly one of the 40 answers.
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });

  it.each([
    [{ participantId: 'p-000001' }, 400],
    [{ participantId: 'p-000001', tags: [] }, 400],
    [{ participantId: 'p-000001', tags: [''] }, 400],
    [{ participantId: 'p-000001', tags: 'sleep' }, 400],
    [{ tags: ['x'] }, 400],
    [{ participantId: 'p-999999', tags: ['x'] }, 404],
  ])('refuses %j with %i', async (json, status) => {
    const result = await call(target, 'POST', NEW_AND_LINK, { json });
    expect(result.status).toBe(status);
    expect(result.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});

describe('POST /tags and PUT /tags/link/participant', () => {
  it('returns one id per distinct name (existing included) that link accepts', async () => {
    const p = participant(target, 3);
    const created = await call(target, 'POST', '/tags', { json: { tags: ['mood', 'sleep', 'mood'] } });
    expect(created.status).toBe(200);
    const ids = created.body as string[];
    expect(ids).toHaveLength(2);
    const again = await call(target, 'POST', '/tags', { json: { tags: ['mood'] } });
    expect(again.body).toEqual([ids[0]]);
    const linked = await call(target, 'PUT', '/tags/link/participant', { json: { participantId: p.userId, tagIds: ids } });
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual({ participantId: p.userId, tagIds: ids });
    expect(await tagsOf(p.userId)).toEqual(['mood', 'sleep']);
  });

  it('refuses unknown tag ids with 404 and participant tokens with 403', async () => {
    const p = participant(target, 3);
    expect((await call(target, 'PUT', '/tags/link/participant', { json: { participantId: p.userId, tagIds: ['t-nope'] } })).status).toBe(404);
    expect((await call(target, 'POST', '/tags', { token: p.token, json: { tags: ['a'] } })).status).toBe(403);
  });
});
