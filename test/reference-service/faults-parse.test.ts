import { describe, expect, it } from 'vitest';
import { describeFault, normaliseFaults, parseFault, resolveFaults, scheduleFaults } from '../../src/reference-service/faults/faults.js';
import { ConfigError } from '../../src/util/errors.js';

describe('parseFault', () => {
  it.each([
    ['keepalive-drift=25', { name: 'keepalive-drift', value: 0.25 }],
    ['stall=100', { name: 'stall', value: 1 }],
    ['drop=0', { name: 'drop', value: 0 }],
    ['error-rate=12.5%', { name: 'error-rate', value: 0.125 }],
    ['duplicate=5', { name: 'duplicate', value: 0.05 }],
    ['leak=1', { name: 'leak', value: 0.01 }],
    ['bad-json=50', { name: 'bad-json', value: 0.5 }],
    ['latency=50', { name: 'latency', value: 50 }],
    ['latency=50ms', { name: 'latency', value: 50 }],
    ['latency=0.2s', { name: 'latency', value: 200 }],
    ['latency=200ms@30s', { name: 'latency', value: 200, atMs: 30_000 }],
    ['drop=5@1m', { name: 'drop', value: 0.05, atMs: 60_000 }],
  ])('%s', (spec, fault) => {
    expect(parseFault(spec)).toEqual(fault);
  });

  it.each([
    ['drop=150', '--fault drop=150: percentage must be 0..100'],
    ['drop=-1', '--fault drop=-1: percentage must be 0..100'],
    ['drop=lots', '--fault drop=lots: "lots" is not a percentage'],
    ['drop', '--fault drop: expected NAME=VALUE, e.g. drop=5 or latency=50ms'],
    ['=5', '--fault =5: expected NAME=VALUE, e.g. drop=5 or latency=50ms'],
    ['explode=5', /--fault explode=5: unknown fault "explode"/],
    ['latency=soon', /--fault latency=soon: "soon" is not a duration/],
    ['latency=200ms@30', /--fault latency=200ms@30 \(after @\): "30"/],
  ])('refuses %s with one ConfigError line', (spec, message) => {
    expect(() => parseFault(spec)).toThrow(ConfigError);
    expect(() => parseFault(spec)).toThrow(message);
  });
});

describe('normaliseFaults / resolveFaults', () => {
  it('accepts specs and parsed faults; the last of a name wins', () => {
    const faults = normaliseFaults(['drop=5', { name: 'latency', value: 20 }, 'drop=10']);
    expect(faults).toEqual([
      { name: 'latency', value: 20 },
      { name: 'drop', value: 0.1 },
    ]);
    expect(resolveFaults(faults)).toEqual({
      keepAliveDrift: 0,
      stall: 0,
      drop: 0.1,
      errorRate: 0,
      latencyMs: 20,
      duplicate: 0,
      leak: 0,
      badJson: 0,
      resumeGap: 0,
      routeErrorRates: {},
      routeLatencyMs: {},
      routeBadJson: {},
      hasRouteFaults: false,
    });
  });

  it('refuses a parsed fault outside its range', () => {
    expect(() => normaliseFaults([{ name: 'stall', value: 2 }])).toThrow(ConfigError);
    expect(() => normaliseFaults([{ name: 'latency', value: -1 }])).toThrow(ConfigError);
  });
});

describe('faults switched on later (@WHEN)', () => {
  it('start at 0 and are switched on in the settings the server reads once their time comes', async () => {
    const faults = normaliseFaults(['latency=200ms@60ms', 'drop=10']);
    const settings = resolveFaults(faults);
    expect(settings).toMatchObject({ latencyMs: 0, drop: 0.1 });
    const cancel = scheduleFaults(faults, settings);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settings.latencyMs).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(settings.latencyMs).toBe(200);
    cancel();
    expect(faults.map(describeFault)).toEqual(['latency=200ms@60ms', 'drop=10%']);
  });

  it('cancelled before their time, never switch on', async () => {
    const faults = normaliseFaults(['error-rate=50@30ms']);
    const settings = resolveFaults(faults);
    scheduleFaults(faults, settings)();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(settings.errorRate).toBe(0);
  });
});

describe('route-scoped faults (error-rate=PCT on METHOD /path)', () => {
  it('name one route, parameters written either way, and leave the unscoped fault alone', () => {
    const faults = normaliseFaults([
      'error-rate=50 on GET /participants/{user_id}/chat_sessions/{id}',
      'error-rate=100 on PUT /api/v1/tags/link/participant',
      'error-rate=5',
    ]);
    expect(faults).toEqual([
      { name: 'error-rate', value: 0.5, route: 'GET /participants/:/chat_sessions/:' },
      { name: 'error-rate', value: 1, route: 'PUT /tags/link/participant' },
      { name: 'error-rate', value: 0.05 },
    ]);
    expect(resolveFaults(faults)).toMatchObject({
      errorRate: 0.05,
      hasRouteFaults: true,
      routeErrorRates: { 'GET /participants/:/chat_sessions/:': 0.5, 'PUT /tags/link/participant': 1 },
    });
    expect(faults.map(describeFault)).toEqual([
      'error-rate=50% on GET /participants/:/chat_sessions/:',
      'error-rate=100% on PUT /tags/link/participant',
      'error-rate=5%',
    ]);
    // The `:name` form of the router is the same route: the last one wins.
    expect(
      normaliseFaults(['error-rate=10 on GET /participants/:userId/chat_sessions/:id', 'error-rate=20 on GET /participants/{a}/chat_sessions/{b}']),
    ).toHaveLength(1);
  });

  // Each case: the faults as given, as normalised, as resolved (a @WHEN one stays off until
  // scheduleFaults switches it on), as described, and one given in its object form.
  const scopedCases = [
    {
      what: 'latency to a route too, apart from the run-wide latency and the route error rate',
      given: [
        'latency=300ms on GET /participants/{user_id}/chat_sessions/{id}',
        'latency=0.1s@2s on PUT /tags/link/participant',
        'error-rate=5 on PUT /tags/link/participant',
        'latency=20',
      ],
      normalised: [
        { name: 'latency', value: 300, route: 'GET /participants/:/chat_sessions/:' },
        { name: 'latency', value: 100, atMs: 2_000, route: 'PUT /tags/link/participant' },
        { name: 'error-rate', value: 0.05, route: 'PUT /tags/link/participant' },
        { name: 'latency', value: 20 },
      ],
      resolved: {
        latencyMs: 20,
        hasRouteFaults: true,
        routeLatencyMs: { 'GET /participants/:/chat_sessions/:': 300 },
        routeErrorRates: { 'PUT /tags/link/participant': 0.05 },
      },
      described: [
        'latency=300ms on GET /participants/:/chat_sessions/:',
        'latency=100ms@2s on PUT /tags/link/participant',
        'error-rate=5% on PUT /tags/link/participant',
        'latency=20ms',
      ],
      objectForm: { name: 'latency', value: 50, route: 'POST /tags' },
    },
    {
      // The unscoped bad-json stays a frame fault.
      what: 'bad-json to a route (its answers, not frames), apart from the unscoped bad-json and the other route faults',
      given: [
        'bad-json=100 on GET /participants/{user_id}/chat_sessions/{id}',
        'bad-json=25%@2s on PATCH /api/v1/participants/:userId/profile_photo',
        'error-rate=5 on GET /participants/{user_id}/chat_sessions/{id}',
        'bad-json=10',
      ],
      normalised: [
        { name: 'bad-json', value: 1, route: 'GET /participants/:/chat_sessions/:' },
        { name: 'bad-json', value: 0.25, atMs: 2_000, route: 'PATCH /participants/:/profile_photo' },
        { name: 'error-rate', value: 0.05, route: 'GET /participants/:/chat_sessions/:' },
        { name: 'bad-json', value: 0.1 },
      ],
      resolved: {
        badJson: 0.1,
        hasRouteFaults: true,
        routeBadJson: { 'GET /participants/:/chat_sessions/:': 1 },
        routeErrorRates: { 'GET /participants/:/chat_sessions/:': 0.05 },
      },
      described: [
        'bad-json=100% on GET /participants/:/chat_sessions/:',
        'bad-json=25%@2s on PATCH /participants/:/profile_photo',
        'error-rate=5% on GET /participants/:/chat_sessions/:',
        'bad-json=10%',
      ],
      objectForm: { name: 'bad-json', value: 0.5, route: 'POST /tags' },
    },
  ] as const;
  for (const { what, given, normalised, resolved, described, objectForm } of scopedCases) {
    it(`scope ${what}`, () => {
      const faults = normaliseFaults([...given]);
      expect(faults).toEqual(normalised);
      expect(resolveFaults(faults)).toMatchObject(resolved);
      expect(faults.map(describeFault)).toEqual(described);
      expect(normaliseFaults([objectForm])).toEqual([objectForm]);
    });
  }

  it('switch a scoped bad-json on at its @WHEN', async () => {
    const faults = normaliseFaults(['bad-json=50@40ms on POST /tags']);
    const settings = resolveFaults(faults);
    expect(settings.routeBadJson).toEqual({});
    const cancel = scheduleFaults(faults, settings);
    await new Promise((resolve) => setTimeout(resolve, 120));
    cancel();
    expect(settings).toMatchObject({ hasRouteFaults: true, routeBadJson: { 'POST /tags': 0.5 }, badJson: 0 });
  });

  it("delay only the scoped route's answers, in place of the run-wide latency", async () => {
    const { startTarget } = await import('../../src/reference-service/start-target.js');
    const target = await startTarget({ port: 0, participants: 2, faults: ['latency=400ms on GET /participants/{user_id}/chat_sessions/{id}', 'latency=0'] });
    try {
      const [participant] = target.fixtures.participants;
      const headers = { 'x-api-key': target.fixtures.apiKey, authorization: `Bearer ${participant?.token}` };
      const timed = async (path: string, method = 'GET'): Promise<{ status: number; ms: number }> => {
        const started = performance.now();
        const response = await fetch(`${target.url}/api/v1${path}`, { method, headers });
        await response.arrayBuffer();
        return { status: response.status, ms: performance.now() - started };
      };
      const scoped = await timed(`/participants/${participant?.userId}/chat_sessions/${participant?.chatSessionIds[0]}`);
      const other = await timed(`/participants/${participant?.userId}/chat_sessions/search`, 'POST');
      expect(scoped.status).toBe(200);
      expect(scoped.ms).toBeGreaterThanOrEqual(400);
      expect(other.status).toBe(200);
      expect(other.ms).toBeLessThan(300);
    } finally {
      await target.close();
    }
  });

  it.each([
    ['drop=5 on GET /participants/{id}/stream', /"drop" cannot be scoped to a route/],
    ['error-rate=5 on FETCH /tags', /"on FETCH \/tags" is not a route/],
    ['error-rate=5 on POST tags', /"on POST tags" is not a route/],
    ['bad-json=5 on FETCH /tags', /"on FETCH \/tags" is not a route/],
    ['bad-json=150 on POST /tags', /--fault bad-json=150 on POST \/tags: percentage must be 0..100/],
    ['bad-json=lots on POST /tags', /"lots" is not a percentage/],
    ['stall=5 on GET /participants/{id}/stream', /"stall" cannot be scoped to a route \(only error-rate, latency, bad-json can\)/],
  ])('refuses %s', (spec, message) => {
    expect(() => parseFault(spec)).toThrow(message);
  });

  it.each([
    ['GET /participants/{user_id}/chat_sessions/{id}/stream', 'GET /participants/:/chat_sessions/:/stream'],
    ['GET /api/v1/participants/{user_id}/stream', 'GET /participants/:/stream'],
  ])('refuses a scoped bad-json on the stream route %s, in one line', async (route, key) => {
    const { startTarget } = await import('../../src/reference-service/start-target.js');
    const refused = startTarget({ port: 0, faults: [`bad-json=5 on ${route}`] });
    await expect(refused).rejects.toThrow(ConfigError);
    await expect(refused).rejects.toThrow(
      `--fault bad-json on ${key}: a stream route answers with SSE frames, not a JSON body; the unscoped bad-json=PCT breaks frames (see docs/target.md)`,
    );
  });

  it('refuses a route the reference service does not serve', async () => {
    const { startTarget } = await import('../../src/reference-service/start-target.js');
    await expect(startTarget({ port: 0, faults: ['error-rate=5 on POST /nowhere'] })).rejects.toThrow(
      /--fault error-rate on POST \/nowhere: the reference service serves no such route/,
    );
  });
});
