// The ruler bench/streams.js holds `coachbench run`'s memory against: undici request() +
// eventsource-parser holding N streams and parsing every frame, nothing else. It is the one
// deliberate exception to "every benchmark drives the engine `run` uses": its own Agent and its
// own loop are the point, being the least any client holding these streams must pay.
// With BARE_HTTP2=1 it speaks h2c, one connection per participant holding both its streams
// (what `run --http 2` does), instead of HTTP/1.1 with a connection per stream.
//
//   node bench/bare-client.js --help   (its arguments, from their declaration below)
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, Client } from 'undici';
import { holdStreams } from './lib/bare-streams.js';
import { parseFlags } from './lib/flags.js';

const { fixturesPath, url, streams, rampPerSec, holdSec, caPath } = parseFlags(import.meta.url, {
  positionals: [
    { name: 'fixturesPath', value: 'FIXTURES', means: 'the fixtures file `coachbench serve --fixtures-out` wrote' },
    { name: 'url', value: 'URL', means: "the target's base URL" },
    { name: 'streams', value: 'STREAMS', kind: 'number', means: 'streams to hold' },
    { name: 'rampPerSec', value: 'RAMP_PER_SEC', kind: 'number', means: 'streams opened per second' },
    { name: 'holdSec', value: 'HOLD_SEC', kind: 'number', means: 'seconds to hold them once the ramp is done' },
    { name: 'caPath', value: 'CA_PEM', optional: true, means: "the target's CA certificate, over TLS" },
  ],
  environment: { BARE_HTTP2: '1: h2c, one connection per participant for both its streams' },
});
const fixtures = JSON.parse(readFileSync(fixturesPath, 'utf8'));
// Over TLS the same trust the driver gets from --ca: the CA added to the system roots, in one
// SecureContext for every connection (as any client holding thousands of them should).
const connect = caPath ? { secureContext: createSecureContext({ ca: [...rootCertificates, readFileSync(caPath, 'utf8')] }) } : undefined;
const HTTP2 = process.env.BARE_HTTP2 === '1';
const dispatcher = new Agent({ pipelining: 1, allowH2: false, ...(connect ? { connect } : {}) });
const connections = [];
/** Participant i's own h2c connection, made by its first stream. */
const connectionOf = (participant) => {
  connections[participant] ??= new Client(url, { allowH2: true, h2Options: { useH2c: true }, pipelining: 100, bodyTimeout: 0 });
  return connections[participant];
};
console.log('ready');
const held = holdStreams({
  fixtures,
  url,
  streams,
  rampPerSec,
  dispatcherOf: (participant) => (HTTP2 ? connectionOf(participant) : dispatcher),
});
await held.ramped;
const { counts } = held;
const report = setInterval(() => console.log(`open ${counts.open} frames ${counts.frames}`), 5000);
await new Promise((r) => setTimeout(r, holdSec * 1000));
clearInterval(report);
console.log(`done open ${counts.open} frames ${counts.frames}`);
held.close();
await dispatcher.destroy();
for (const connection of connections) await connection?.destroy();
process.exit(0);
