// A minimal photo endpoint for bench/throughput-open.js: drains the upload and answers 200 with
// the five headers of docs/design.md §4 and a JSON body, doing nothing else, so that the driver, not the
// target, is what saturates first. It counts the uploads it answered (`GET /sink/count`), so
// the benchmark can hold the report's request count against the target's own.
// Prints "sink: http://127.0.0.1:PORT" when listening.
//
//   node bench/throughput-sink.js   (no flags but --help)
import { createServer } from 'node:http';
import { parseFlags } from './lib/flags.js';
import { photoAnswerer } from './lib/photo-answer.js';

parseFlags(import.meta.url, {});
const answerPhoto = photoAnswerer('sink');
let answered = 0;

const server = createServer({ noDelay: true }, (req, res) => {
  if (req.method === 'GET' && req.url === '/sink/count') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ answered }));
    return;
  }
  req.resume();
  req.on('end', () => {
    if (req.method === 'PATCH') answered++;
    answerPhoto(res);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`sink: http://127.0.0.1:${server.address().port}`));
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
