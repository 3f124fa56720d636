// The floor of the open model on this machine, for bench/open-error.js: the least a Node.js
// open-loop generator does. Slot i is due at i / RATE seconds (the pacing coachbench's open
// model uses); a timer wakes for each due slot and sends it with undici's request() on a Pool
// of 512 connections (coachbench's request Agent), reads the answer's body, and takes the
// latency from the slot's intended start. No checks, no histograms, no interval series,
// nothing else in the process. What coachbench's error is beyond this one's is coachbench's;
// what this one shows is Node, undici, the loopback and the scheduler.
//
//   node bench/open-floor-client.js URL PATH RATE SECONDS BODY_FILE SAMPLES_OUT   (headers as JSON in CB_HEADERS)
// writes [[intended start epoch ms, latency ms], ...] to SAMPLES_OUT; prints {"requests": N, "errors": M, "late": L}
import { readFileSync, writeFileSync } from 'node:fs';
import { Pool } from 'undici';

const [url, path, rateText, secondsText, bodyFile, samplesOut] = process.argv.slice(2);
const rate = Number(rateText);
const totalSlots = Math.floor(rate * Number(secondsText));
const body = readFileSync(bodyFile);
const headers = JSON.parse(process.env.CB_HEADERS ?? '{}');
const pool = new Pool(url, { connections: 512, pipelining: 1 });
const samples = [];
let requests = 0;
let errors = 0;
let late = 0;
let inFlight = 0;
let next = 0;

async function send(intendedMs) {
  inFlight++;
  try {
    const answer = await pool.request({ method: 'PATCH', path, headers, body });
    await answer.body.text();
    samples.push([performance.timeOrigin + intendedMs, performance.now() - intendedMs]);
    requests++;
    if (answer.statusCode < 200 || answer.statusCode > 299) errors++;
  } finally {
    inFlight--;
  }
}

const startMs = performance.now() + 50;
const slotMs = (i) => startMs + (i * 1_000) / rate;
await new Promise((resolve) => {
  const tick = () => {
    const now = performance.now();
    while (next < totalSlots && slotMs(next) <= now) {
      if (now - slotMs(next) > 1) late++;
      send(slotMs(next)).catch(() => errors++);
      next++;
    }
    if (next >= totalSlots) return resolve();
    setTimeout(tick, Math.max(0, slotMs(next) - performance.now()));
  };
  setTimeout(tick, Math.max(0, startMs - performance.now()));
});
while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
await pool.close();
writeFileSync(samplesOut, JSON.stringify(samples));
console.log(JSON.stringify({ requests, errors, late }));
