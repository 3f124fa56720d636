// The floor of any Node.js load generator on this machine, for bench/throughput-closed.js: a
// closed loop on raw net sockets that sends one prebuilt request (head and body in one Buffer,
// one write) and finds the end of each answer by its Content-Length, checking nothing else.
// Every HTTP client written in JavaScript does at least this much per request (a socket write,
// a read through libuv and the stream machinery, a look at the head), so the CPU it spends per
// request is what Node itself costs; what coachbench spends above it is its engine and checks.
// Not a load generator to use: no chunked bodies, no keep-alive handling, no timeouts.
//
// It prints {"requests": N, "non2xx": M}.
//
//   node bench/node-floor-client.js --help   (its arguments, from their declaration below)
import { connect } from 'node:net';
import { closedClientArguments } from './lib/closed-client.js';

const { url, path, connections, seconds, body, headers: given } = closedClientArguments(import.meta.url, 'connections, one request in flight on each');
const target = new URL(url);
const headers = { host: target.host, ...given, 'content-length': String(body.length) };
const head = `PATCH ${path} HTTP/1.1\r\n${Object.entries(headers)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('')}\r\n`;
const request = Buffer.concat([Buffer.from(head, 'latin1'), body]);
const endAt = performance.now() + seconds * 1_000;
let requests = 0;
let non2xx = 0;

function connection() {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname);
    socket.setNoDelay(true);
    let pending = null;
    socket.on('connect', () => socket.write(request));
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      pending = pending === null ? chunk : Buffer.concat([pending, chunk]);
      while (pending !== null) {
        const headEnd = pending.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const headText = pending.toString('latin1', 0, headEnd);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(headText)?.[1] ?? 0);
        const total = headEnd + 4 + length;
        if (pending.length < total) return;
        requests++;
        if (headText.charCodeAt(9) !== 50) non2xx++; // "HTTP/1.1 2xx"
        pending = pending.length === total ? null : pending.subarray(total);
        if (performance.now() >= endAt) {
          socket.end();
          return resolve();
        }
        socket.write(request);
      }
    });
  });
}

await Promise.all(Array.from({ length: connections }, connection));
console.log(JSON.stringify({ requests, non2xx }));
