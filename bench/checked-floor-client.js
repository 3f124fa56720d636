// The floor of a closed-loop client that judges every answer, for bench/peers.js: autocannon's
// own engine, run the way its CLI runs it (the autocannon package, one prebuilt request,
// latencies in its HDR histogram), with every answer put through the checks coachbench gives a
// photo upload, imported from this checkout's build rather than written again: status, the five
// required headers, a JSON media type and body (src/drivers/throughput/response-check.ts), and
// a photoUrl naming a JPEG (src/drivers/throughput/photo-judge.ts). What it leaves out is what
// coachbench adds around those checks: its scenarios, its metrics and intervals, its evidence
// and report, its traceparent per request, its start. Its CPU per request beside autocannon's
// CLI is what the checks cost on autocannon's engine; coachbench's beside it, what the rest costs.
//
// It prints {"requests": N, "non2xx": M, "failedChecks": F, "errors": E, "p50Ms": …, "p99Ms": …}:
// errors are the answers that failed a check (a non-2xx among them) and the requests that got
// no answer, each counted once.
//
//   node bench/checked-floor-client.js --help   (its arguments, from their declaration below)
import autocannon from 'autocannon';
import { closedClientArguments } from './lib/closed-client.js';

const { url, path, connections, seconds, body, headers } = closedClientArguments(import.meta.url, 'connections, one request in flight on each');
// From the build once the arguments are read, so that `--help` answers on a checkout not built yet.
const { photoUrlProblem } = await import('../dist/drivers/throughput/photo-judge.js');
const { inspectResponse, normaliseHeaders } = await import('../dist/drivers/throughput/response-check.js');

let failedChecks = 0;
/** coachbench's verdict on one photo upload's answer (a JPEG in the default part), counted when it fails. */
const judge = (status, text, _context, received) => {
  const inspection = inspectResponse({ status, headers: normaliseHeaders(received), body: text });
  const urlProblem = inspection.status === 200 && inspection.json !== undefined ? photoUrlProblem(inspection.json, 'jpeg') : null;
  if (inspection.failures.length > 0 || urlProblem !== null) failedChecks++;
};

const result = await autocannon({
  url: new URL(path, url).href,
  connections,
  duration: seconds,
  method: 'PATCH',
  headers,
  body,
  requests: [{ onResponse: judge }],
});
console.log(
  JSON.stringify({
    requests: result.requests.total,
    non2xx: result.non2xx,
    failedChecks,
    errors: failedChecks + result.errors,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  }),
);
