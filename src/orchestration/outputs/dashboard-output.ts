/**
 * `run --dashboard [PORT]`: serves the live dashboard (dashboard-page.ts) and feeds it by
 * Server-Sent Events: on connect the session, the last sample and the charts, then each
 * interval's sample and charts. It keeps the last MAX_SAMPLES samples (15 minutes at one per
 * second) to chart, so a soak of hours holds flat memory; the report has the whole run. The
 * charts are drawn here with the report's chart code, once per change for every page, and
 * only while a page is connected; so are the request kinds' summaries over the run so far,
 * read from the run's total as it stood at the last interval (live-output.ts says why it may
 * be kept until the next one).
 */
import type { Server, ServerResponse } from 'node:http';
import type { RequestKindSummary } from '../../contract/report.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { dashboardCharts } from './dashboard-charts.js';
import { dashboardScript } from './dashboard-client.js';
import { dashboardKinds, KINDS_SLOT_ID, kindSummaries, shownKinds } from './dashboard-kinds.js';
import { dashboardPage } from './dashboard-page.js';
import { type DashboardSample, dashboardSample, type RunningTotals } from './dashboard-sample.js';
import { closeServer, listenOn, liveServer } from './listen.js';
import type { IntervalSample, LiveOutput, SessionInfo } from './live-output.js';

export const MAX_SAMPLES = 900;

/** The session as a page receives it: the kinds' settings (templates, headers, schemas) stay on the server. */
const shownSession = ({ requests: _settings, ...shown }: SessionInfo): SessionInfo => shown;

const sse = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export class DashboardOutput implements LiveOutput {
  readonly name = 'the live dashboard';
  private readonly clients = new Set<ServerResponse>();
  private readonly samples: DashboardSample[] = [];
  private session: SessionInfo | null = null;
  private running: RunningTotals = { events: 0, requests: 0, errors: 0 };
  /** The run's total at the last interval, while the kinds' summaries have not been built from it; null once they are, or without kinds. */
  private kindsTotal: MetricSet | null = null;
  /** The request kinds' summaries over the run so far (docs/design.md §2.15); null without kinds or before the first interval. */
  private kinds: Record<string, RequestKindSummary> | null = null;
  /** The charts of the samples as they stand, as an event; null until asked for since they changed. */
  private chartsEvent: string | null = null;

  private constructor(private readonly server: Server) {}

  /** The origin the page is served at, set once listening. */
  url = '';

  static async start(host: string, port: number): Promise<DashboardOutput> {
    let output: DashboardOutput | null = null;
    const page = dashboardPage();
    const script = dashboardScript();
    const server = liveServer(host, (request, response) => {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      const headers = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
      if (request.method !== 'GET') response.writeHead(405, { ...headers, allow: 'GET' }).end();
      else if (path === '/') response.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' }).end(page);
      else if (path === '/dashboard.js') response.writeHead(200, { ...headers, 'content-type': 'text/javascript; charset=utf-8' }).end(script);
      else if (path === '/events' && output) output.subscribe(response);
      else response.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
    });
    output = new DashboardOutput(server);
    output.url = await listenOn(server, host, port, '--dashboard');
    return output;
  }

  private subscribe(response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    if (this.session) response.write(sse('session', shownSession(this.session)));
    const last = this.samples.at(-1);
    if (last) response.write(sse('sample', last));
    response.write(this.currentCharts());
    this.clients.add(response);
    response.on('close', () => this.clients.delete(response));
  }

  private currentCharts(): string {
    const requests = this.session?.requests;
    if (this.kindsTotal !== null && requests) {
      this.kinds = kindSummaries(this.kindsTotal, requests);
      this.kindsTotal = null;
    }
    this.chartsEvent ??= sse('charts', {
      ...dashboardCharts(this.samples),
      [KINDS_SLOT_ID]: dashboardKinds(this.samples, this.kinds, this.samples.at(-1)?.thresholds ?? []),
    });
    return this.chartsEvent;
  }

  /** The samples changed: pages that are connected get the new charts; with none, nothing is drawn. */
  private chartsChanged(): void {
    this.chartsEvent = null;
    if (this.clients.size > 0) this.broadcast(this.currentCharts());
  }

  private broadcast(text: string): void {
    // A reader that stopped reading is left behind, not waited for: the run never blocks on a browser.
    for (const client of this.clients) if (client.writableLength < 1_048_576) client.write(text);
  }

  beginSession(info: SessionInfo): void {
    this.session = info;
    this.samples.length = 0;
    this.running = { events: 0, requests: 0, errors: 0 };
    this.kinds = null;
    this.kindsTotal = null;
    this.broadcast(sse('session', shownSession(info)));
    this.chartsChanged();
  }

  onInterval(sample: IntervalSample): void {
    const { point } = sample;
    this.running = { events: this.running.events + point.events, requests: this.running.requests + point.requests, errors: this.running.errors + point.errors };
    const entry = dashboardSample(sample, this.running, this.session);
    // Summaries of the run so far cost a pass over every kind's histograms: built when a page
    // is shown them (chartsChanged, or a page connecting before the next interval), not for nobody.
    if (shownKinds(this.session?.requests).length > 0) this.kindsTotal = sample.total;
    this.samples.push(entry);
    if (this.samples.length > MAX_SAMPLES) this.samples.shift();
    this.broadcast(sse('sample', entry));
    this.chartsChanged();
  }

  async close(): Promise<void> {
    this.broadcast(sse('end', {}));
    for (const client of this.clients) client.end();
    await closeServer(this.server);
  }
}
