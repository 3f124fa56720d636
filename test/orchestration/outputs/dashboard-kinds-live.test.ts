/**
 * The live dashboard builds the request kinds' summaries over the run so far only for a page
 * (docs/design.md §2.15, docs/metrics.md "Cost"): while no page is connected the run's total
 * is never read for them, and a page that connects mid-run gets the very kinds section a page
 * connected from the start holds. Real dashboard servers, real event-stream clients on
 * 127.0.0.1; the totals are real MetricSets that count how often the kinds' latency is looked up.
 */
import { type ClientRequest, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { recordMs } from '../../../src/metrics/histogram.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { requestKindKey, throughputNames } from '../../../src/metrics/names.js';
import { pointFromInterval } from '../../../src/metrics/timeseries.js';
import { KINDS_SLOT_ID } from '../../../src/orchestration/outputs/dashboard-kinds.js';
import { DashboardOutput } from '../../../src/orchestration/outputs/dashboard-output.js';
import type { LiveVerdict } from '../../../src/orchestration/outputs/live-output.js';
import { twoKindsProfile } from '../../support/kinds-profile.js';

const PROFILE = twoKindsProfile('kinds-live');

const SESSION = {
  profileName: 'kinds-live',
  targetUrl: 'http://127.0.0.1:1',
  participants: 0,
  durationMs: 30_000,
  thresholds: [],
  requests: PROFILE.requests!,
};

const KIND_LATENCY = new Set(['getSession', 'searchSessions'].map((kind) => throughputNames(requestKindKey(kind)).latencyUs));

/** A run's total that counts the lookups of the kinds' latency histograms: what building their summaries reads. */
class WatchedTotal extends MetricSet {
  kindLatencyLookups = 0;
  override hasHistogram(name: string): boolean {
    if (KIND_LATENCY.has(name)) this.kindLatencyLookups++;
    return super.hasHistogram(name);
  }
}

/** One interval: `count` answers of each kind around `ms`. */
function interval(count: number, ms: number): MetricSet {
  const set = new MetricSet();
  for (const kind of ['getSession', 'searchSessions']) {
    const names = throughputNames(requestKindKey(kind));
    for (let i = 0; i < count; i++) {
      recordMs(set.histogram(names.latencyUs), ms + (i % 10));
      recordMs(set.histogram(names.serviceTimeUs), ms + (i % 10));
    }
    set.inc(names.requests, count);
    set.inc(names.status(200), count);
    set.peak(names.activeMs, 1_000);
  }
  return set;
}

const PASS: LiveVerdict = { verdict: 'pass', checks: [], thresholds: [] };

/** Feeds the output interval `i` (1 s long) on its own total, as the collector does: total first, then the output. */
function feed(output: DashboardOutput, total: MetricSet, i: number): void {
  const set = interval(10 + i * 5, 20 + i * 40);
  total.add(set);
  output.onInterval({ point: pointFromInterval(set, i + 1, 1), interval: set, total, verdict: () => PASS });
}

interface Client {
  req: ClientRequest;
  text: () => string;
}

function connect(output: DashboardOutput): Client {
  let body = '';
  const req = request(`${output.url}/events`, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      body += chunk;
    });
  });
  req.on('error', () => undefined);
  req.end();
  return { req, text: () => body };
}

/** The kinds slot of each `charts` event received so far. */
const kindsSections = (text: string): string[] =>
  text
    .split('\n\n')
    .filter((block) => block.startsWith('event: charts\n'))
    .map((block) => (JSON.parse(block.slice(block.indexOf('data: ') + 6)) as Record<string, string>)[KINDS_SLOT_ID] ?? '');

async function until(what: string, holds: () => boolean, maxMs = 10_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (!holds()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const opened: DashboardOutput[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.req.destroy();
  await Promise.all(opened.splice(0).map((output) => output.close()));
});

describe("the live dashboard's request kinds", () => {
  it('are summarized only for a page, and a page that connects mid-run gets the same section', async () => {
    const watched = await DashboardOutput.start('127.0.0.1', 0);
    const shown = await DashboardOutput.start('127.0.0.1', 0);
    opened.push(watched, shown);
    watched.beginSession(SESSION);
    shown.beginSession(SESSION);
    // A page on `shown` from the start: its section is what every page gets today.
    const early = connect(shown);
    clients.push(early);
    await until('the early page to get its first charts', () => kindsSections(early.text()).length === 1);

    const unseenTotal = new WatchedTotal();
    const shownTotal = new WatchedTotal();
    for (let i = 0; i < 3; i++) {
      feed(watched, unseenTotal, i);
      feed(shown, shownTotal, i);
    }
    await until('the early page to get three intervals of charts', () => kindsSections(early.text()).length === 4);
    expect(shownTotal.kindLatencyLookups).toBeGreaterThan(0);
    // Three intervals with no page: the kinds' summaries were never built.
    expect(unseenTotal.kindLatencyLookups).toBe(0);

    const late = connect(watched);
    clients.push(late);
    await until('the late page to get its charts', () => kindsSections(late.text()).length === 1);
    const [lateSection] = kindsSections(late.text());
    expect(lateSection).toContain('<h3>The run so far</h3>');
    expect(lateSection).toContain('<td>getSession</td>');
    expect(lateSection).toBe(kindsSections(early.text()).at(-1));
    expect(unseenTotal.kindLatencyLookups).toBeGreaterThan(0);

    // Built once for this interval: a second page is sent the same section without another pass.
    const lookups = unseenTotal.kindLatencyLookups;
    const second = connect(watched);
    clients.push(second);
    await until('the second page to get its charts', () => kindsSections(second.text()).length === 1);
    expect(kindsSections(second.text())[0]).toBe(lateSection);
    expect(unseenTotal.kindLatencyLookups).toBe(lookups);
  }, 30_000);
});
