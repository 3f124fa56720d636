// A closed loop on undici's Pool as a plain user of it would write one, for
// bench/throughput-closed.js: CONNECTIONS loops, each awaiting `pool.request()` and reading the
// answer's body as text. It shows what the engine of coachbench's open model costs per request
// on the closed model's job, and why the closed model stays on autocannon.
//
// It prints {"requests": N, "non2xx": M}.
//
//   node bench/undici-pool-client.js --help   (its arguments, from their declaration below)
import { Pool } from 'undici';
import { closedClientArguments } from './lib/closed-client.js';

const { url, path, connections, seconds, body, headers } = closedClientArguments(import.meta.url, "the Pool's connections, one loop each");
const pool = new Pool(url, { connections, pipelining: 1 });
const endAt = performance.now() + seconds * 1_000;
let requests = 0;
let non2xx = 0;

async function loop() {
  while (performance.now() < endAt) {
    const answer = await pool.request({ method: 'PATCH', path, headers, body });
    await answer.body.text();
    requests++;
    if (answer.statusCode < 200 || answer.statusCode > 299) non2xx++;
  }
}

await Promise.all(Array.from({ length: connections }, loop));
await pool.close();
console.log(JSON.stringify({ requests, non2xx }));
