/**
 * Masking follows the tokens a run holds (docs/design.md §2.13): every renewal registers its
 * tokens for masking, and the ones the run no longer holds (two renewals old) are released,
 * so a soak that renews every few minutes for hours masks a bounded set.
 */
import { describe, expect, it } from 'vitest';
import { Credentials } from '../../../src/engine/auth/credentials.js';
import type { RunFixtures } from '../../../src/engine/scenario.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { maskedTokenForms, redact, registerParticipantTokens, secretsSnapshot } from '../../../src/util/redact.js';

const PARTICIPANTS = 50;
const RENEWALS = 40;

const tokenOf = (user: number, generation: number): string => `pt/${user}+gen=${generation}-masking-test`;
const coachOf = (generation: number): string => `coach-${generation}-masking-test-token`;
const sharedOf = (generation: number): string => `shared-${generation}-masking-test-token`;

function fixtures(): RunFixtures {
  const participants = Array.from({ length: PARTICIPANTS }, (_, user) => ({ userId: `u-${user}`, token: tokenOf(user, 0), chatSessionIds: ['s'] }));
  return { apiKey: 'ak_masking', coachToken: coachOf(0), participants };
}

describe('masking across renewals', () => {
  it('masks what is held and what the last renewal replaced, and lets older tokens go', () => {
    const held = fixtures();
    // What the run registers at its start (run-target.ts), as a run does.
    registerParticipantTokens(held.participants.map((participant) => participant.token));
    const credentials = new Credentials(held, { tokenCommand: null, fixturesPath: null }, () => new MetricSet());
    const update = (generation: number) => ({
      coachToken: coachOf(generation),
      participants: new Map(held.participants.map((participant, user) => [participant.userId, tokenOf(user, generation)])),
    });

    credentials.apply(update(1));
    credentials.apply(update(2));
    const afterTwo = maskedTokenForms();
    const secretsAfterTwo = secretsSnapshot().length;
    for (let generation = 3; generation <= RENEWALS; generation++) credentials.apply(update(generation));
    // Each renewal adds its tokens and lets go of those two renewals old: the set stays as large.
    expect(maskedTokenForms()).toBe(afterTwo);
    expect(secretsSnapshot().length).toBe(secretsAfterTwo);

    const shown = (token: string): boolean => redact(`x ${token} y`) !== 'x *** y';
    // Held now, and replaced by the last renewal (a request in flight may still carry it).
    expect(shown(tokenOf(7, RENEWALS))).toBe(false);
    expect(shown(tokenOf(7, RENEWALS - 1))).toBe(false);
    expect(shown(coachOf(RENEWALS))).toBe(false);
    expect(shown(coachOf(RENEWALS - 1))).toBe(false);
    // The tokens the run started with stay masked, as they were registered at its start.
    expect(shown(tokenOf(7, 0))).toBe(false);
    // Two renewals old: held by nothing, no longer in the index.
    expect(shown(tokenOf(7, RENEWALS - 2))).toBe(true);
    expect(shown(coachOf(RENEWALS - 2))).toBe(true);
  });

  it('keeps one token for everyone masked while it is held, however many renewals repeat it', () => {
    const held = fixtures();
    const credentials = new Credentials(held, { tokenCommand: null, fixturesPath: null }, () => new MetricSet());
    credentials.apply({ token: sharedOf(1) });
    const before = secretsSnapshot().length;
    // A fixtures file re-read without change gives the same token again: one registration, not one per read.
    for (let read = 0; read < 10; read++) credentials.apply({ token: sharedOf(1) });
    expect(secretsSnapshot().length).toBe(before);
    credentials.apply({ token: sharedOf(2) });
    credentials.apply({ token: sharedOf(3) });
    expect(secretsSnapshot()).toContain(sharedOf(3));
    expect(secretsSnapshot()).toContain(sharedOf(2));
    expect(secretsSnapshot()).not.toContain(sharedOf(1));
    expect(redact(`x ${sharedOf(3)} y`)).toBe('x *** y');
  });
});
