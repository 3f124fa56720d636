// A minimal photo endpoint for bench/throughput-open.js: drains the upload and answers 200 with
// the five headers of docs/design.md §4 and a JSON body, doing nothing else, so that the driver, not the
// target, is what saturates first. It counts the uploads it answered (`GET /sink/count`), so
// the benchmark can hold the report's request count against the target's own.
// Prints "sink: http://127.0.0.1:PORT" when listening.
//
//   node bench/throughput-sink.js
import { createServer } from 'node:http';

const HEADERS = {
  'access-control-allow-headers': 'Accept, Authorization, Content-Type, X-API-Key',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-allow-origin': '*',
  'cache-control': 'no-store',
  'content-type': 'application/json; charset=utf-8',
};
const BODY = '{"userId":"sink","photoUrl":"https://photos.invalid/sink.jpg"}';
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
    res.writeHead(200, { ...HEADERS, 'content-length': Buffer.byteLength(BODY) });
    res.end(BODY);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`sink: http://127.0.0.1:${server.address().port}`));
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
