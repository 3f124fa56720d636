// The ruler of bench/open-error.js: a photo endpoint in its own process that times itself. Each
// upload is timed from the moment its request head is parsed to the moment its answer is
// handed to the kernel ('finish'), with process.hrtime, and kept as [arrival epoch ms, µs]; it
// answers after `--delay` ms (the target's own latency) with the five headers of
// docs/design.md §4 and a JSON body, so coachbench judges every answer as it would the real
// target's. GET /ruler/samples returns the samples kept so far.
// Prints "ruler: http://127.0.0.1:PORT" when listening.
//
//   node bench/ruler-sink.js --help   (its flags, from their declaration below)
import { createServer } from 'node:http';
import { parseFlags } from './lib/flags.js';
import { photoAnswerer } from './lib/photo-answer.js';

const flags = parseFlags(import.meta.url, {
  flags: { delay: { kind: 'number', default: 20, means: 'ms each upload is held before its answer' } },
});
const DELAY_MS = flags.delay;
const answerPhoto = photoAnswerer('ruler');
const samples = [];

const server = createServer({ noDelay: true, keepAliveTimeout: 60_000 }, (req, res) => {
  if (req.method === 'GET' && req.url === '/ruler/samples') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(samples));
    return;
  }
  const arrivalMs = Date.now();
  const start = process.hrtime.bigint();
  res.once('finish', () => {
    if (req.method === 'PATCH') samples.push([arrivalMs, Number((process.hrtime.bigint() - start) / 1000n)]);
  });
  req.resume();
  req.on('end', () => setTimeout(() => answerPhoto(res), DELAY_MS));
});
server.listen(0, '127.0.0.1', () => console.log(`ruler: http://127.0.0.1:${server.address().port}`));
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
