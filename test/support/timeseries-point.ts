/** A time-series point of report.json for tests: an idle second, with the fields a test cares about given. */
import type { TimeseriesPoint } from '../../src/contract/report.js';

export function timeseriesPoint(fields: Partial<TimeseriesPoint> = {}): TimeseriesPoint {
  return {
    tSec: 1,
    intervalSec: 1,
    streamsOpen: 0,
    mainStreamsOpen: 0,
    events: 0,
    eventsPerSec: 0,
    keepAlives: 0,
    keepAliveViolations: 0,
    errors: 0,
    requests: 0,
    requestsPerSec: 0,
    messagesSent: 0,
    eventLatencyP99Ms: null,
    requestLatencyP99Ms: null,
    eventLoopDelayP99Ms: null,
    rssBytes: 0,
    ...fields,
  };
}
