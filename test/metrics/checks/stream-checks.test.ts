/**
 * The stream checks pass only on their own evidence, read from a chat summary built the way
 * a run builds it (counters and histograms in a MetricSet): zero observations is a skip that
 * says what was missing, and a KEEP_ALIVE sent right after the headers is a violation.
 */
import { describe, expect, it } from 'vitest';
import type { CheckId } from '../../../src/contract/check-ids.js';
import type { CheckResult } from '../../../src/contract/report.js';
import { buildChatSummary } from '../../../src/metrics/chat-summary.js';
import { streamChecks } from '../../../src/metrics/checks/stream-checks.js';
import { recordMs } from '../../../src/metrics/histogram.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { CHAT, MAIN } from '../../../src/metrics/names.js';

const KEEP_ALIVE = { intervalMs: 15_000, toleranceMs: 3_750 };

function metricsOf(record: (m: MetricSet) => void): MetricSet {
  const metrics = new MetricSet();
  record(metrics);
  return metrics;
}

/** The six stream checks over what `record` counted, for `participants` planned participants. */
function checksAfter(record: (m: MetricSet) => void, participants = 10): Record<string, CheckResult> {
  const metrics = new MetricSet();
  record(metrics);
  const results = streamChecks(buildChatSummary(metrics, { participants, keepAlive: KEEP_ALIVE }));
  return Object.fromEntries(results.map((result) => [result.id, result]));
}

/** A stream's worth of healthy KEEP_ALIVE evidence: its first KEEP_ALIVE on time, then `gaps` gaps. */
function healthyKeepAlives(m: MetricSet, streams: number, gaps: number): void {
  m.inc(CHAT.opened, streams);
  for (let s = 0; s < streams; s++) {
    recordMs(m.histogram(CHAT.firstKeepAliveUs), 15_010);
    for (let g = 0; g < gaps; g++) recordMs(m.histogram(CHAT.keepAliveGapUs), 15_000);
  }
  m.inc(CHAT.event('KEEP_ALIVE'), streams * (gaps + 1));
}

describe('stream checks with no evidence', () => {
  it('skip, each saying what was missing; stream.open fails when no stream opened at all', () => {
    const checks = checksAfter(() => undefined);
    expect(checks['stream.open']).toMatchObject({ status: 'fail', detail: expect.stringMatching(/no stream opened/) });
    const skipped: Array<[CheckId, RegExp]> = [
      ['stream.keepalive.cadence', /no gap between two KEEP_ALIVEs/],
      ['stream.stall', /no stream stayed open longer than the 30000 ms stall window/],
      ['stream.session.isolation', /no event other than KEEP_ALIVE arrived on a chat-session stream/],
      ['stream.event.schema', /no event other than KEEP_ALIVE arrived/],
      ['stream.message.delivery', /no message was injected while a stream of its session was open/],
    ];
    for (const [id, reason] of skipped) {
      expect(checks[id]?.status, id).toBe('skip');
      expect(checks[id]?.observed, id).toBeNull();
      expect(checks[id]?.detail, id).toMatch(reason);
    }
  });

  it('stream.open is a skip, not a fail, when there was no participant to open a stream for', () => {
    expect(checksAfter(() => undefined, 0)['stream.open']?.status).toBe('skip');
  });
});

describe('stream.keepalive.cadence', () => {
  it('fails the reset-after-first-frame target: 1776 first KEEP_ALIVEs right after the headers, no gap', () => {
    // Today's report said "1776 gaps within 15000 ± 3750 ms": none was a gap, and every first one came ~15 s early.
    const checks = checksAfter((m) => {
      m.inc(CHAT.opened, 1_776);
      m.inc(CHAT.dropped, 1_776);
      m.inc(CHAT.drop('net:UND_ERR_SOCKET'), 1_776);
      for (let i = 0; i < 1_776; i++) recordMs(m.histogram(CHAT.firstKeepAliveUs), 2);
      m.inc(CHAT.firstKeepAliveEarly, 1_776);
    });
    expect(checks['stream.keepalive.cadence']).toMatchObject({ status: 'fail', observed: 1_776 });
    expect(checks['stream.keepalive.cadence']?.detail).toMatch(/1776 early/);
    expect(checks['stream.open']).toMatchObject({ status: 'fail', observed: 1_776 });
    expect(checks['stream.open']?.detail).toMatch(/net:UND_ERR_SOCKET: 1776/);
  });

  it('skips with first KEEP_ALIVEs on time but no gap between two of them', () => {
    const checks = checksAfter((m) => healthyKeepAlives(m, 40, 0));
    expect(checks['stream.keepalive.cadence']).toMatchObject({ status: 'skip', observed: null });
    expect(checks['stream.keepalive.cadence']?.detail).toMatch(/40 first KEEP_ALIVEs seen/);
  });

  it('passes on gaps, observing the number of gaps', () => {
    const checks = checksAfter((m) => healthyKeepAlives(m, 40, 3));
    expect(checks['stream.keepalive.cadence']).toMatchObject({ status: 'pass', observed: 120 });
  });

  it('fails on a late first KEEP_ALIVE or a gap out of bounds, however many gaps held', () => {
    expect(
      checksAfter((m) => {
        healthyKeepAlives(m, 40, 3);
        m.inc(CHAT.firstKeepAliveLate);
      })['stream.keepalive.cadence']?.status,
    ).toBe('fail');
    expect(
      checksAfter((m) => {
        healthyKeepAlives(m, 40, 3);
        m.inc(CHAT.keepAliveViolations, 2);
      })['stream.keepalive.cadence']?.observed,
    ).toBe(2);
  });
});

describe('stream.keepalive.cadence on bursts', () => {
  const bursty = (m: MetricSet): void => {
    healthyKeepAlives(m, 10, 3);
    m.inc(CHAT.keepAliveViolations, 8);
    m.inc(CHAT.keepAliveBunched, 6);
  };

  it('names a buffering intermediary for gaps under a tenth of the interval while the driver kept up', () => {
    const [, cadence] = streamChecks(buildChatSummary(metricsOf(bursty), { participants: 10, keepAlive: KEEP_ALIVE }), {
      keepAliveViolations: 0,
      keepAliveBunched: 2,
      stalledSilentAfterHeaders: 0,
    });
    expect(cadence?.detail).toMatch(
      /; 4 gaps under a tenth of the interval outside the intervals the driver fell behind in: KEEP_ALIVEs arriving in bursts \(an intermediary buffering/,
    );
  });

  it('lays bunched gaps of intervals the driver fell behind in at the driver, not at an intermediary', () => {
    const [, cadence] = streamChecks(buildChatSummary(metricsOf(bursty), { participants: 10, keepAlive: KEEP_ALIVE }), {
      keepAliveViolations: 8,
      keepAliveBunched: 6,
      stalledSilentAfterHeaders: 0,
    });
    expect(cadence?.status).toBe('fail');
    expect(cadence?.detail).toMatch(/6 gaps under a tenth of the interval, all while the driver was behind \(its own late reads\)$/);
    expect(cadence?.detail).not.toMatch(/intermediary/);
  });
});

describe('stream.stall on streams silent after their headers', () => {
  const silent = (m: MetricSet): void => {
    m.inc(CHAT.opened, 10);
    m.inc(CHAT.stalled, 5);
    m.inc(CHAT.stalledSilentAfterHeaders, 4);
  };
  const stallOf = (silentBehind: number) =>
    streamChecks(buildChatSummary(metricsOf(silent), { participants: 10, keepAlive: KEEP_ALIVE }), {
      keepAliveViolations: 0,
      keepAliveBunched: 0,
      stalledSilentAfterHeaders: silentBehind,
    })[2];

  it('names a buffering intermediary while the driver kept up', () => {
    expect(stallOf(0)?.detail).toBe(
      '5 streams silent for more than 30000 ms; 4 of them got nothing after the headers while the connection stayed open (an intermediary buffering the response? see docs/failure-codes.md#buffering-intermediaries)',
    );
    expect(stallOf(1)?.detail).toMatch(
      /; 3 of them got nothing after the headers while the connection stayed open outside the intervals the driver fell behind in \(/,
    );
  });

  it('lays them at the driver when every one was in an interval it fell behind in', () => {
    expect(stallOf(4)?.detail).toBe(
      '5 streams silent for more than 30000 ms; 4 of them got nothing after the headers, all while the driver was behind (see generator.healthy)',
    );
  });
});

describe('an intermediary is named for a pattern, not for strays', () => {
  it('a few bunched gaps, silent stalls or held headers among many late ones are counted, not blamed on a proxy', () => {
    const strays = checksAfter((m) => {
      healthyKeepAlives(m, 80, 3);
      m.inc(CHAT.keepAliveViolations, 20);
      m.inc(CHAT.keepAliveBunched, 3);
      m.inc(CHAT.stalled, 7);
      m.inc(CHAT.stalledSilentAfterHeaders, 1);
      m.inc(CHAT.firstKeepAliveWithHeaders, 6);
    });
    expect(strays['stream.keepalive.cadence']?.detail).toMatch(/; 3 gaps under a tenth of the interval$/);
    expect(strays['stream.stall']?.detail).toBe(
      '7 streams silent for more than 30000 ms; 1 of them got nothing after the headers while the connection stayed open',
    );
    expect(strays['stream.open']?.detail).toMatch(/; 6 streams got their headers only with their first KEEP_ALIVE, about one interval after the request$/);
    const pattern = checksAfter((m) => {
      healthyKeepAlives(m, 80, 3);
      m.inc(CHAT.firstKeepAliveWithHeaders, 20);
    });
    expect(pattern['stream.open']?.detail).toMatch(/about one interval after the request \(an intermediary holding the headers until the first bytes\?/);
  });
});

describe('evidence of the other stream checks', () => {
  it('stream.stall passes only on streams watched past the stall window', () => {
    expect(checksAfter((m) => healthyKeepAlives(m, 5, 1))['stream.stall']?.status).toBe('skip');
    const watched = checksAfter((m) => {
      healthyKeepAlives(m, 5, 3);
      m.inc(CHAT.streamsPastStallWindow, 5);
    });
    expect(watched['stream.stall']).toMatchObject({ status: 'pass', observed: 5 });
    expect(checksAfter((m) => m.inc(CHAT.stalled, 2))['stream.stall']).toMatchObject({ status: 'fail', observed: 2 });
  });

  it('isolation and schema need an event other than KEEP_ALIVE; invalid frames are not evidence', () => {
    const keepAlivesOnly = checksAfter((m) => {
      healthyKeepAlives(m, 5, 3);
      m.inc(MAIN.event('KEEP_ALIVE'), 20);
    });
    expect(keepAlivesOnly['stream.session.isolation']?.status).toBe('skip');
    expect(keepAlivesOnly['stream.event.schema']?.status).toBe('skip');
    expect(keepAlivesOnly['stream.event.schema']?.detail).toMatch(/40 KEEP_ALIVEs/);

    const withEvents = checksAfter((m) => {
      healthyKeepAlives(m, 5, 3);
      m.inc(CHAT.event('MESSAGE_SENT'), 7);
      m.inc(MAIN.event('MESSAGE_SENT'), 2);
    });
    expect(withEvents['stream.session.isolation']).toMatchObject({ status: 'pass', observed: 7 });
    expect(withEvents['stream.event.schema']).toMatchObject({ status: 'pass', observed: 9 });

    const garbage = checksAfter((m) => {
      m.inc(CHAT.opened, 1);
      m.inc(CHAT.event('<invalid>'), 3);
      m.inc(CHAT.schemaViolations, 3);
      m.inc(CHAT.schemaViolation('invalid-json'), 3);
    });
    expect(garbage['stream.event.schema']).toMatchObject({ status: 'fail', observed: 3 });
    expect(garbage['stream.session.isolation']?.status).toBe('skip');
  });

  it('stream.open names a buffering intermediary beside opens that got no headers, and says the open latency', () => {
    const timedOut = checksAfter((m) => {
      m.inc(CHAT.openFailed, 400);
      m.inc(CHAT.openFailure('timeout:headers'), 400);
    });
    expect(timedOut['stream.open']).toMatchObject({ status: 'fail', observed: 400 });
    expect(timedOut['stream.open']?.detail).toMatch(
      /^400 opens failed \(timeout:headers: 400\).*; 400 got no headers within the open timeout \(a target that holds them, or an intermediary buffering the response\? see docs\/failure-codes\.md/,
    );
    const refused = checksAfter((m) => {
      m.inc(CHAT.openFailed, 3);
      m.inc(CHAT.openFailure('status:503'), 3);
    });
    expect(refused['stream.open']?.detail).not.toMatch(/buffering/);
    const healthy = checksAfter((m) => {
      healthyKeepAlives(m, 4, 1);
      for (const value of [3, 4, 5, 40]) recordMs(m.histogram(CHAT.openLatencyUs), value);
    });
    expect(healthy['stream.open']?.detail).toMatch(/stayed open; open latency p50 4 ms, p99 40 ms$/);
  });

  it('stream.message.delivery with 0 expected deliveries is a skip, not "0 of 0 passed"', () => {
    const sentButUnseen = checksAfter((m) => m.inc(CHAT.messagesSent, 12));
    expect(sentButUnseen['stream.message.delivery']).toMatchObject({ status: 'skip', observed: null });
    expect(sentButUnseen['stream.message.delivery']?.detail).toMatch(/12 posted/);
    const delivered = checksAfter((m) => {
      m.inc(CHAT.messagesSent, 12);
      m.inc(CHAT.deliveriesExpected, 30);
      m.inc(CHAT.deliveriesReceived, 30);
    });
    expect(delivered['stream.message.delivery']).toMatchObject({ status: 'pass', observed: 30 });
  });

  it('every pass rests on observed > 0, whatever was recorded', () => {
    const recorders: Array<(m: MetricSet) => void> = [
      () => undefined,
      (m) => healthyKeepAlives(m, 1, 0),
      (m) => healthyKeepAlives(m, 3, 2),
      (m) => m.inc(MAIN.opened, 4),
      (m) => m.inc(CHAT.deliveriesExpected, 0),
    ];
    for (const record of recorders) {
      for (const check of Object.values(checksAfter(record))) {
        if (check.status === 'pass') expect(check.observed, check.id).toBeGreaterThan(0);
      }
    }
  });
});

describe('stream.resume', () => {
  it("fails on reconnects that could not send the target's event id back, even with nothing lost", () => {
    const checks = checksAfter((m) => {
      m.inc(CHAT.reconnects, 5);
      m.inc(CHAT.resumeIdUnsendable, 5);
    });
    expect(checks['stream.resume']).toMatchObject({ status: 'fail', observed: 5 });
    expect(checks['stream.resume']?.detail).toMatch(/^5 reconnects could not send the target's last event id back/);
  });

  it('names both findings when a resume also lost events', () => {
    const checks = checksAfter((m) => {
      m.inc(CHAT.reconnects, 4);
      m.inc(CHAT.resumes, 2);
      m.inc(CHAT.resumeLost, 3);
      m.inc(CHAT.resumeIdUnsendable, 2);
    });
    expect(checks['stream.resume']).toMatchObject({ status: 'fail', observed: 5 });
    expect(checks['stream.resume']?.detail).toMatch(/3 events lost and 0 repeated across 2 resumed reconnects; 2 reconnects could not send/);
  });
});

describe("stream.open and a gateway's own pages", () => {
  const PAGE = 'text/html, Server: nginx/1.22.1';
  /** `opens` failed opens under each of `codes`, all answered by a gateway's page. */
  const openFailedWith = (codes: Record<string, number>) => {
    const metrics = metricsOf((m) => {
      for (const [code, count] of Object.entries(codes)) {
        m.inc(CHAT.openFailed, count);
        m.inc(CHAT.openFailure(code), count);
      }
    });
    const opens = Object.values(codes).reduce((sum, count) => sum + count, 0);
    const [open] = streamChecks(buildChatSummary(metrics, { participants: 10, keepAlive: KEEP_ALIVE }), undefined, {
      gatewayPages: { opens, first: PAGE },
    });
    return open!;
  };

  it.each([
    [{ 'status:502': 4 }, "4 of the opens were answered by a gateway's own 502 page, not the API: the gateway in front of the API could not reach it"],
    [
      { 'status:504': 3 },
      "3 of the opens were answered by a gateway's own 504 page, not the API: the gateway in front of the API had no answer from it in time",
    ],
    [
      { 'status:502': 2, 'status:504': 1 },
      "3 of the opens were answered by a gateway's own 502 or 504 page, not the API: the gateway in front of the API could not reach it or had no answer from it in time",
    ],
  ])('%o: the detail names the gateway, not the API', (codes, said) => {
    const open = openFailedWith(codes);
    expect(open.status).toBe('fail');
    expect(open.detail).toContain(`; ${said} (first: ${PAGE})`);
  });

  it('says nothing of a gateway when no page answered', () => {
    const metrics = metricsOf((m) => {
      m.inc(CHAT.openFailed, 2);
      m.inc(CHAT.openFailure('status:502'), 2);
    });
    const [open] = streamChecks(buildChatSummary(metrics, { participants: 10, keepAlive: KEEP_ALIVE }));
    expect(open!.detail).toBe('2 opens failed (status:502: 2), 0 streams cut by the target (none)');
  });
});
