/**
 * Redaction masks the registered secret values and bearer tokens in authorization headers,
 * nothing else: ordinary words (a header name followed by a status, a secret that happens to
 * be part of a longer word) pass through untouched. A long secret with digits or symbols
 * cannot be part of a word, so it is masked even where it is glued to other text.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { redact, redactedStart, registerParticipantTokens, registerSecret, secretsSnapshot } from '../../src/util/redact.js';

// Secrets chosen to collide with ordinary words and with each other's surroundings.
const API_KEY = 'ak_5f2e9c0d1b7a4e3f';
const COMMON_WORD_SECRET = 'probe';
const SHORT_SECRET = 'ab1';
const PUNCTUATED_SECRET = 'tok.en/with+signs==';
const LETTERS_ONLY_SECRET = 'Coachingsecret';

beforeAll(() => {
  for (const secret of [API_KEY, COMMON_WORD_SECRET, SHORT_SECRET, PUNCTUATED_SECRET, LETTERS_ONLY_SECRET]) registerSecret(secret);
});

describe('redact', () => {
  it.each([
    // A header name followed by an ordinary value is not a secret.
    ['probe POST new_and_link without X-API-Key: answered 500', 'probe POST new_and_link without X-API-Key: answered 500'.replace('probe', '***')],
    ['request without X-API-Key: 500', 'request without X-API-Key: 500'],
    ['x-api-key=missing', 'x-api-key=missing'],
    // A registered secret inside a longer word is that word, not the secret.
    ['probes ran; reprobe scheduled; probe_count 3', 'probes ran; reprobe scheduled; probe_count 3'],
    ['Coachingsecrets are words too', 'Coachingsecrets are words too'],
    // A long secret with digits is no part of any word: masked even glued to other text.
    [`key%3D${API_KEY}`, 'key%3D***'],
    [`x${API_KEY}0`, 'x***0'],
    ['the Coachingsecret itself', 'the *** itself'],
    // The registered values themselves, wherever they stand as a whole token.
    [`key ${API_KEY} refused`, 'key *** refused'],
    [`"x-api-key":"${API_KEY}"`, '"x-api-key":"***"'],
    [`http://h/x?key=${API_KEY}&y=1`, 'http://h/x?key=***&y=1'],
    [`${API_KEY}`, '***'],
    [`(${API_KEY})`, '(***)'],
    ['the probe stopped', 'the *** stopped'],
    [`sig ${PUNCTUATED_SECRET} end`, 'sig *** end'],
    [`sig=${PUNCTUATED_SECRET}`, 'sig=***'],
    // Bearer tokens in authorization headers, in the shapes errors print them.
    ['authorization: Bearer pt_0123456789abcdef', 'authorization: Bearer ***'],
    ['{"authorization":"Bearer pt_0123456789abcdef"}', '{"authorization":"Bearer ***"}'],
    ["{ authorization: 'Bearer pt_0123456789abcdef' }", "{ authorization: 'Bearer ***' }"],
    // "Bearer" in prose is a word, not a header.
    ['a Bearer token was refused', 'a Bearer token was refused'],
    ['photo.upload: answered 401 to a Bearer request', 'photo.upload: answered 401 to a Bearer request'],
  ])('%j -> %j', (input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  it('ignores secrets too short to tell from ordinary text', () => {
    expect(secretsSnapshot()).not.toContain(SHORT_SECRET);
    expect(redact('tab1 ab1 lab12')).toBe('tab1 ab1 lab12');
  });

  it('masks a secret registered after a text was first redacted', () => {
    expect(redact('late-secret-value here')).toBe('late-secret-value here');
    registerSecret('late-secret-value');
    expect(redact('late-secret-value here')).toBe('*** here');
  });
});

describe('redact with secrets holding regular-expression characters', () => {
  it.each(['a-b-c-d-e-f-1', 'k(1)[2]{3}*+?^$|\\', 'x.y.z.w'])('masks %j literally', (secret) => {
    registerSecret(secret);
    expect(redact(`before ${secret} after`)).toBe('before *** after');
  });
});

describe('participant tokens', () => {
  // As many as a large fixtures file holds; each is looked up, not scanned for.
  const tokens = Array.from({ length: 20_000 }, (_, i) => `pt_${i.toString(16).padStart(32, '0')}`);
  beforeAll(() => registerParticipantTokens(tokens));

  it('are masked wherever one stands alone: a sample, JSON, a query, a URL segment', () => {
    const token = tokens[12_345]!;
    expect(redact(`stream open failed (status:401): token ${token} expired`)).toBe('stream open failed (status:401): token *** expired');
    expect(redact(`{"detail":"unknown token","token":"${token}"}`)).toBe('{"detail":"unknown token","token":"***"}');
    expect(redact(`GET /stream?access_token=${token}&x=1`)).toBe('GET /stream?access_token=***&x=1');
    expect(redact(`/api/v1/tokens/${token}/revoke`)).toBe('/api/v1/tokens/***/revoke');
  });

  it('leave text alone that only resembles one', () => {
    expect(redact(`pt_${'f'.repeat(32)}`)).toBe(`pt_${'f'.repeat(32)}`);
    expect(redact(`pt_${'0'.repeat(31)}`)).toBe(`pt_${'0'.repeat(31)}`);
    expect(redact('PATCH /api/v1/participants/p-000001/profile_photo: 500 status:500')).toBe(
      'PATCH /api/v1/participants/p-000001/profile_photo: 500 status:500',
    );
  });

  it('are masked glued to other text too, and two side by side as one', () => {
    const [a, b] = [tokens[7]!, tokens[19_999]!];
    expect(redact(`x${a}y`)).toBe('x***y');
    expect(redact(`${a}${b} and ${b}`)).toBe('*** and ***');
  });

  it('registered later (a renewal) are masked from then on', () => {
    const renewed = 'pt_renewed0000000000000000000000001';
    expect(redact(`resent with ${renewed}`)).toBe(`resent with ${renewed}`);
    registerParticipantTokens([renewed]);
    expect(redact(`resent with ${renewed}`)).toBe('resent with ***');
  });
});

describe('participant tokens holding any character', () => {
  // Shared prefixes and suffixes, as one issuer's tokens have: none may make a scan slow or miss one.
  const tokens = [
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwLTEifQ.abc/def+ghi=',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwLTIifQ.zz/yy+xx==',
    'a/b/c/d/e/f',
    'tok+with+plus',
    'pad====',
    'dots.and.more.dots',
    'jéton-ünï-✓-日本',
    'emoji-😀-token',
  ];
  beforeAll(() => registerParticipantTokens(tokens));

  it.each(tokens)('%j is masked as it is, in a URL path, in JSON and glued to a URL', (token) => {
    expect(redact(`photoUrl "https://cdn.example/${token}.png" does not name a jpeg image`)).toBe(
      'photoUrl "https://cdn.example/***.png" does not name a jpeg image',
    );
    expect(redact(JSON.stringify({ title: `bad token ${token}` }))).toBe('{"title":"bad token ***"}');
    expect(redact(`/u/${token}/x`)).toBe('/u/***/x');
  });

  it.each(tokens)('%j is masked in the forms a target echoes it in: percent-encoded and JSON-escaped', (token) => {
    expect(redact(`?t=${encodeURIComponent(token)}&x`)).toBe('?t=***&x');
    expect(redact(`{"t":"${token.replaceAll('/', '\\/')}"}`)).toBe('{"t":"***"}');
    const ascii = JSON.stringify(token).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(redact(`{"t":${ascii}}`)).toBe('{"t":"***"}');
  });

  it('masks nothing else', () => {
    const text = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwLTMifQ.other a/b/c/d/e/g pad=== jéton-ünï-✓';
    expect(redact(text)).toBe(text);
  });
});

describe('redactedStart: an excerpt masked before it is cut', () => {
  const token = `cut/${'k'.repeat(60)}+end=`;
  beforeAll(() => registerParticipantTokens([token]));

  it('masks a token that straddles the cut, so no piece of it is left', () => {
    const text = `${'a'.repeat(70)}${token}${'z'.repeat(10_000)}`;
    expect(redactedStart(text, 80).slice(0, 80)).toBe(`${'a'.repeat(70)}***${'z'.repeat(7)}`);
    expect(text.slice(0, 80)).not.toContain('***');
  });

  it('still does when masks before it pull text from far beyond the cut into the excerpt', () => {
    const text = `${`${token} `.repeat(26)}${'b'.repeat(2)}${token}${'z'.repeat(10_000)}`;
    const excerpt = redactedStart(text, 80).slice(0, 80);
    expect(excerpt).not.toMatch(/cut\/|kkkk/);
    expect(excerpt.startsWith('*** *** ')).toBe(true);
  });

  it('returns a short text whole, masked', () => {
    expect(redactedStart(`x ${token} y`, 80)).toBe('x *** y');
  });
});
