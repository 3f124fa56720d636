import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { renderHtml } from '../../src/report/render-html.js';
import { checkTraceUrlTemplate, traceLink } from '../../src/report/trace-url.js';
import { ConfigError } from '../../src/util/errors.js';
import { makeReport } from '../support/make-report.js';

const A = '4bf92f3577b34da6a3ce929d0e0e4736';
const B = '0af7651916cd43dd8448eb211c80319c';

function withSlowest(traceUrl?: string): Report {
  const report = makeReport();
  report.metrics.slowest = {
    tagLink: [{ traceId: A, latencyMs: 812.5 }],
    'chatStreams.delivery': [{ traceId: B, latencyMs: 1204 }],
  };
  const point = report.timeseries[0];
  if (point) point.slowest = { tagLink: [{ traceId: A, latencyMs: 812.5 }] };
  if (traceUrl !== undefined) report.traceUrl = traceUrl;
  return report;
}

describe('report.html slowest requests', () => {
  it('lists the run slowest per scenario with their trace ids, and each interval slowest', () => {
    const html = renderHtml(withSlowest());
    const section = /<section id="slowest">[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(section).toContain(`<code>${A}</code>`);
    expect(section).toContain(`<code>${B}</code>`);
    expect(section).toContain('Message delivery (the injected message)');
    expect(section).toContain('The slowest of each interval (1)');
    expect(section).not.toContain('<a ');
    expect(html).toContain('<a href="#slowest">Slowest</a>');
  });

  it('is absent when no request was traced', () => {
    const html = renderHtml(makeReport());
    expect(html).not.toContain('id="slowest"');
  });

  it('links each trace id through the --trace-url template, escaped', () => {
    const html = renderHtml(withSlowest('https://tempo.example/trace/{traceId}?org="a"&x=<b>'));
    expect(html).toContain(`<a href="https://tempo.example/trace/${A}?org=&quot;a&quot;&amp;x=&lt;b&gt;" rel="noopener noreferrer"><code>${A}</code></a>`);
    expect(html).not.toContain('<b>');
  });

  it('makes no link of a template that is not http(s), nor lets a crafted trace id out of its attribute', () => {
    expect(renderHtml(withSlowest('javascript:alert({traceId})'))).not.toMatch(/href="javascript/);
    const report = withSlowest('https://tempo.example/trace/{traceId}');
    report.metrics.slowest = { tagLink: [{ traceId: '"><script>x</script>', latencyMs: 1 }] };
    const html = renderHtml(report);
    expect(html).not.toContain('<script>');
    expect(html).toContain('href="https://tempo.example/trace/%22%3E%3Cscript%3Ex%3C%2Fscript%3E"');
  });
});

describe('--trace-url', () => {
  it.each([
    ['https://tempo.example/trace/', '--trace-url: "https://tempo.example/trace/" has no {traceId} to put a trace id in'],
    ['tempo/{traceId}', '--trace-url: "tempo/{traceId}" is not a URL once {traceId} is filled in'],
    ['ftp://tempo.example/{traceId}', '--trace-url: "ftp://tempo.example/{traceId}" must be an http or https URL'],
  ])('%j is refused', (template, message) => {
    expect(() => checkTraceUrlTemplate(template)).toThrow(ConfigError);
    expect(() => checkTraceUrlTemplate(template)).toThrow(message);
  });

  it('fills every {traceId}', () => {
    expect(traceLink('http://127.0.0.1:3200/explore?t={traceId}&again={traceId}', A)).toBe(`http://127.0.0.1:3200/explore?t=${A}&again=${A}`);
    expect(traceLink(undefined, A)).toBeNull();
  });
});
