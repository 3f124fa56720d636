/**
 * report.html's time series (issue 12 item 6): a short last interval is drawn to scale (every
 * chart plots a rate) and said so; warm-up intervals are named as what thresholds ignore.
 */
import { describe, expect, it } from 'vitest';
import type { TimeseriesPoint } from '../../src/contract/report.js';
import { renderHtml } from '../../src/report/render-html.js';
import { makeReport } from '../support/make-report.js';

function withPoints(edit: (points: TimeseriesPoint[]) => void): string {
  const report = makeReport({ timeseriesPoints: 10 });
  edit(report.timeseries);
  return renderHtml(report);
}

describe('report.html time series', () => {
  it('plots errors per second, so a 0.18 s last interval with 9 errors reads 50/s, not a cliff of 9', () => {
    const html = withPoints((points) => {
      const last = points[points.length - 1]!;
      last.intervalSec = 0.18;
      last.errors = 9;
    });
    expect(html).toContain('Errors and KEEP_ALIVE violations per second');
    // The errors series ends at 9 / 0.18 s = 50/s: on a 0..60 axis of 248 px from y=14, y = 262 - 248 × 50/60.
    const errors = /data-chart="ts-errors"[\s\S]*?data-series="0" d="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(errors).toMatch(/L616 55\.3$/);
    expect(html).toMatch(/The last interval is 0\.18s long \(the run ended inside it\): counts are charted per second/);
  });

  it('says nothing about the last interval when it is whole, and names the warm-up when there is one', () => {
    expect(withPoints(() => {})).not.toContain('The last interval is');
    const html = withPoints((points) => {
      points[0]!.warmup = true;
      points[1]!.warmup = true;
    });
    expect(html).toMatch(/The first 2 intervals \(to \d+(\.\d+)?s\) are the profile's warm-up, shaded grey in each chart: shown, but ignored by thresholds\./);
  });
});
