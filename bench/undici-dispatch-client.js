// A closed loop on undici's lowest public layer, for bench/throughput-closed.js: CONNECTIONS
// undici Clients (pipelining 1), each dispatching its next request from the handler's end of
// the previous answer, the body kept as text, the status counted, nothing else checked. Beside
// undici-pool-client.js (request() on a Pool) it shows what undici's engine itself costs per
// request on the closed model's job, without request()'s Readable body and promise: the
// cheapest way to the llhttp parser a package outside Node's internals offers (issue 30).
//
// It prints {"requests": N, "non2xx": M, "bodyChars": C}.
//
//   node bench/undici-dispatch-client.js --help   (its arguments, from their declaration below)
import { Client } from 'undici';
import { closedClientArguments } from './lib/closed-client.js';

const { url, path, connections, seconds, body, headers } = closedClientArguments(import.meta.url, 'undici Clients, one loop each');
const endAt = performance.now() + seconds * 1_000;
let requests = 0;
let non2xx = 0;
/** Characters of answer bodies read: the text is kept and used, as body.text()'s is in undici-pool-client.js. */
let bodyChars = 0;

/** One connection's loop: resolves when the time is up and its Client is closed. */
function loop() {
  const client = new Client(url, { pipelining: 1 });
  return new Promise((resolve, reject) => {
    const next = () => {
      if (performance.now() >= endAt) return void client.close().then(resolve, reject);
      let status = 0;
      let text = '';
      client.dispatch(
        { method: 'PATCH', path, headers, body },
        {
          onRequestStart() {},
          onResponseStart(_controller, statusCode) {
            status = statusCode;
          },
          onResponseData(_controller, chunk) {
            text += chunk.toString();
          },
          onResponseEnd() {
            requests++;
            bodyChars += text.length;
            if (status < 200 || status > 299) non2xx++;
            next();
          },
          onResponseError(_controller, error) {
            reject(error);
          },
        },
      );
    };
    next();
  });
}

await Promise.all(Array.from({ length: connections }, loop));
console.log(JSON.stringify({ requests, non2xx, bodyChars }));
