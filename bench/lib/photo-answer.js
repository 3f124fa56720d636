// The answer of the benchmarks' photo sinks (bench/throughput-sink.js, bench/ruler-sink.js): 200
// with the five headers of docs/design.md §4 and a JSON body, so coachbench judges it as it
// would the real target's.
const HEADERS = {
  'access-control-allow-headers': 'Accept, Authorization, Content-Type, X-API-Key',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-allow-origin': '*',
  'cache-control': 'no-store',
  'content-type': 'application/json; charset=utf-8',
};

/** A function answering an upload as a photo endpoint does; `name` goes into the body's userId and URL. */
export function photoAnswerer(name) {
  const body = `{"userId":"${name}","photoUrl":"https://photos.invalid/${name}.jpg"}`;
  const headers = { ...HEADERS, 'content-length': Buffer.byteLength(body) };
  return (res) => {
    res.writeHead(200, headers);
    res.end(body);
  };
}
