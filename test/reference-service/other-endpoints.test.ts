import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { call, FIVE_HEADERS, participant, startTestTarget } from '../support/target-helpers.js';

let target: RunningTarget;
beforeAll(async () => {
  target = await startTestTarget();
});
afterAll(() => target.close());

describe('participants', () => {
  it('POST /participants creates a participant with tags, extras and groups (1.3.x names)', async () => {
    const created = await call(target, 'POST', '/participants', {
      json: { firstName: 'Noor', lastName: 'Haddad', tags: ['new-joiner'], extras: { shift: 'night' }, groups: ['cohort-7'] },
    });
    expect(created.status).toBe(201);
    const body = created.body as Record<string, unknown>;
    expect(body).toMatchObject({
      userId: 'p-000007',
      firstName: 'Noor',
      extras: { shift: 'night' },
      groups: ['cohort-7'],
      chatSessionIds: ['cs-000007-1', 'cs-000007-2', 'cs-000007-3'],
    });
    expect((body.tags as Array<{ name: string }>).map((t) => t.name)).toEqual(['new-joiner']);
    expect(created.headers.location).toBe('/api/v1/participants/p-000007');
    expect('participantTags' in body).toBe(false);
    expect((await call(target, 'POST', '/participants', { json: { firstName: 'x' } })).status).toBe(400);
  });

  it('GET /participants/{id} is 404 for an unknown participant (staff) and 403 for another participant', async () => {
    expect((await call(target, 'GET', '/participants/p-999999')).status).toBe(404);
    expect((await call(target, 'GET', '/participants/p-999999', { token: participant(target).token })).status).toBe(403);
  });
});

describe('enrolments', () => {
  const route = () => `/participants/${participant(target).userId}/enrolments`;

  it('accepts interventionStartFrom / interventionEndAt as HH:MM', async () => {
    const result = await call(target, 'POST', route(), {
      token: participant(target).token,
      json: { journeyId: 'j-sleep', interventionStartFrom: '07:30', interventionEndAt: '21:00' },
    });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({
      journeyId: 'j-sleep',
      participantId: participant(target).userId,
      interventionStartFrom: '07:30',
      interventionEndAt: '21:00',
      deprecatedFields: [],
    });
  });

  it('flags the deprecated preferredReminderHour / preferredReminderMin', async () => {
    const result = await call(target, 'POST', route(), { json: { journeyId: 'j-steps', preferredReminderHour: 8, preferredReminderMin: 15 } });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({
      preferredReminderHour: 8,
      preferredReminderMin: 15,
      deprecatedFields: ['preferredReminderHour', 'preferredReminderMin'],
      interventionStartFrom: null,
    });
  });

  it.each([
    [{ interventionStartFrom: '07:30' }],
    [{ journeyId: 'j', interventionStartFrom: '7:30' }],
    [{ journeyId: 'j', interventionEndAt: '24:00' }],
    [{ journeyId: 'j', preferredReminderHour: 24 }],
  ])('refuses %j with 400', async (json) => {
    expect((await call(target, 'POST', route(), { json })).status).toBe(400);
  });
});

describe('activity plan card responses (1.3.x)', () => {
  const p = () => participant(target, 1);
  const card = () => `apc-${p().userId.slice(2)}-1-1`;

  it('PUT records a response with measureDataType; DELETE undoes it (204)', async () => {
    const path = `/participants/${p().userId}/activity_plan_cards/${card()}/responses`;
    const put = await call(target, 'PUT', path, { token: p().token, json: { values: [{ measureDataType: 'integer', value: 4 }] } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ activityPlanCardId: card(), participantId: p().userId, values: [{ measureDataType: 'integer', value: 4 }] });
    const plan = await call(target, 'GET', `/participants/${p().userId}/activity_plans/ap-${p().userId.slice(2)}-1`, { token: p().token });
    expect(plan.status).toBe(200);
    const first = (plan.body as { cards: Array<{ activityValue: Record<string, unknown> }> }).cards[0]?.activityValue;
    expect(first).toMatchObject({ measureDataType: 'integer', value: [{ measureDataType: 'integer', value: 4 }] });
    expect(first && 'valueDataType' in first).toBe(false);
    expect(first?.measureTypeContent).toMatchObject({ title: 'Sleep' });
    const list = await call(target, 'GET', `/participants/${p().userId}/activity_plans`, { token: p().token });
    expect(list.body).toMatchObject({ total: 1, items: [{ id: `ap-${p().userId.slice(2)}-1` }] });
    expect((await call(target, 'GET', `/participants/${p().userId}/activity_plans/ap-nope`, { token: p().token })).status).toBe(404);
    const del = await call(target, 'DELETE', path, { token: p().token });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    for (const name of FIVE_HEADERS) expect(del.headers[name], name).toBeTruthy();
  });

  it('refuses the removed valueDataType / contentId fields and unknown cards', async () => {
    const path = `/participants/${p().userId}/activity_plan_cards/${card()}/responses`;
    const old = await call(target, 'PUT', path, { json: { values: [{ valueDataType: 'integer', value: 4 }] } });
    expect(old.status).toBe(400);
    expect((old.body as { detail: string }).detail).toMatch(/valueDataType/);
    expect((await call(target, 'PUT', path, { json: { values: [{ measureDataType: 'x', contentId: 'c1' }] } })).status).toBe(400);
    expect(
      (await call(target, 'PUT', `/participants/${p().userId}/activity_plan_cards/apc-nope/responses`, { json: { values: [{ measureDataType: 'x' }] } }))
        .status,
    ).toBe(404);
  });
});

describe('deprecated 1.2.x endpoints', () => {
  const p = () => participant(target, 2);
  const num = () => p().userId.slice(2);

  it('POST /admin/participants answers with 1.2.x names, Deprecation and a successor Link', async () => {
    const result = await call(target, 'POST', '/admin/participants', {
      json: { firstName: 'Old', lastName: 'Client', participantTags: ['legacy'], participantGroups: ['g1'] },
    });
    expect(result.status).toBe(201);
    expect(result.headers.deprecation).toMatch(/^@\d+$/);
    expect(result.headers.link).toBe('</api/v1/participants>; rel="successor-version"');
    expect(result.body).toMatchObject({ participantGroups: ['g1'], participantTags: [{ name: 'legacy' }] });
  });

  it.each([
    ['GET', () => `/participants/${p().userId}/activity_plans/all/latest`, () => `/api/v1/participants/${p().userId}/activity_plans`],
    ['GET', () => `/participants/${p().userId}/activity_plans/ap-${num()}-1/data`, () => `/api/v1/participants/${p().userId}/activity_plans/ap-${num()}-1`],
  ] as const)('%s %s still answers with Deprecation and Link', async (method, path, successor) => {
    const result = await call(target, method, path(), { token: p().token });
    expect(result.status).toBe(200);
    expect((result.body as { id: string }).id).toBe(`ap-${num()}-1`);
    expect(result.headers.deprecation).toMatch(/^@\d+$/);
    expect(result.headers.link).toBe(`<${successor()}>; rel="successor-version"`);
  });

  it.each(['survey_responses', 'activity_responses'])('PUT %s records the response and links the card successor', async (name) => {
    const cardId = `apc-${num()}-1-3`;
    const result = await call(target, 'PUT', `/participants/${p().userId}/${name}`, {
      token: p().token,
      json: { activityPlanCardId: cardId, values: [{ measureDataType: 'text', value: 'earlier' }] },
    });
    expect(result.status).toBe(200);
    expect(result.headers.deprecation).toBeTruthy();
    expect(result.headers.link).toBe(`</api/v1/participants/${p().userId}/activity_plan_cards/${cardId}/responses>; rel="successor-version"`);
  });

  it('PUT responses/undo answers 204 with the DELETE successor; errors still carry Deprecation', async () => {
    const cardId = `apc-${num()}-1-3`;
    const undo = await call(target, 'PUT', `/participants/${p().userId}/responses/undo`, { token: p().token, json: { activityPlanCardId: cardId } });
    expect(undo.status).toBe(204);
    expect(undo.headers.link).toContain(`/activity_plan_cards/${cardId}/responses`);
    const bad = await call(target, 'PUT', `/participants/${p().userId}/responses/undo`, { token: p().token, json: {} });
    expect(bad.status).toBe(400);
    expect(bad.headers.deprecation).toBeTruthy();
    expect(bad.headers.link).toMatch(/rel="successor-version"/);
  });
});
