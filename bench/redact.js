// Benchmark: the cost of masking participants' tokens (src/util/redact.ts, docs/design.md §2.7)
// with a 5,000-participant fixtures set registered, as a run registers it. Masking runs on
// failure samples and error texts only, so what matters is the time per text: measured for
// failure texts of 120 B to 8 KiB, with no token in them and with one, and for the same
// texts with no token registered (the secrets and Authorization-header passes alone). Also:
// the time to register the set, and the index alone (SubstringSet) at 5,000 and 50,000
// tokens, to show the scan does not grow with the number of tokens. Tokens are JWT-shaped
// (one issuer: every token shares its first 37 characters) and hold `/`, `+`, `=` and `.`.
//
//   node bench/redact.js --help   (its flags, from their declaration below)
import { randomBytes } from 'node:crypto';
import { parseFlags } from './lib/flags.js';
import { median } from './lib/median.js';
import { beginMeasurement, writeResults } from './lib/results.js';

const flags = parseFlags(import.meta.url, {
  build: true,
  flags: {
    participants: { kind: 'number', default: 5_000, means: "participants' tokens registered, as a run registers its fixtures" },
    reps: { kind: 'number', default: 7, means: 'repetitions of each timing; the median is kept' },
  },
});
const PARTICIPANTS = flags.participants;
const REPS = flags.reps;
const begun = beginMeasurement();

const { redact, registerParticipantTokens } = await import('../dist/util/redact.js');
const { SubstringSet } = await import('../dist/util/substring-set.js');

const HEADER = 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.';
const token = () => `${HEADER}${randomBytes(60).toString('base64')}.${randomBytes(30).toString('base64')}`;
const tokens = Array.from({ length: PARTICIPANTS }, token);

const filler = (bytes) => {
  const words = 'photo upload PATCH profile_photo answered 200 with photoUrl that does not name a jpeg image status problem json';
  let text = '';
  while (text.length < bytes) text += `${words} `;
  return text.slice(0, bytes);
};
const SIZES = [120, 512, 2_048, 8_192];
const textsOf = (withToken) =>
  SIZES.map((bytes) => {
    const text = filler(bytes);
    if (!withToken) return text;
    const at = Math.floor(bytes / 2);
    return `${text.slice(0, at)} https://cdn.example/${tokens[PARTICIPANTS - 1]}.png ${text.slice(at)}`;
  });

/** Median over REPS of the mean time per call (ns), each rep long enough to dwarf the clock. */
function nsPerCall(fn, text) {
  const perRep = [];
  let calls = 1;
  for (let t = performance.now(); performance.now() - t < 20; calls *= 2) for (let i = 0; i < calls; i++) fn(text);
  for (let rep = 0; rep < REPS; rep++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) fn(text);
    perRep.push(Number(process.hrtime.bigint() - started) / calls);
  }
  return Math.round(median(perRep));
}

const table = (fn, withToken) => Object.fromEntries(textsOf(withToken).map((text, i) => [`${SIZES[i]}B`, nsPerCall(fn, text)]));

// Before any token is registered: the secrets and Authorization-header passes alone.
const noTokensRegistered = { withoutToken: table(redact, false) };

const heapBefore = process.memoryUsage().heapUsed;
const registerStarted = performance.now();
registerParticipantTokens(tokens);
const registerMs = +(performance.now() - registerStarted).toFixed(1);
const registeredHeapMiB = +((process.memoryUsage().heapUsed - heapBefore) / 2 ** 20).toFixed(1);

const check = textsOf(true)[0];
if (redact(check).includes(tokens[PARTICIPANTS - 1])) throw new Error('the token was not masked: the benchmark measures nothing');

const registered = { withoutToken: table(redact, false), withToken: table(redact, true) };

/** The index alone, at this many tokens: per-text scan time of the 2 KiB texts. */
function indexAlone(count) {
  const set = new SubstringSet();
  const many = count <= tokens.length ? tokens.slice(0, count) : [...tokens, ...Array.from({ length: count - tokens.length }, token)];
  const started = performance.now();
  for (const one of many) set.add(one);
  const addMs = +(performance.now() - started).toFixed(1);
  const [without, withOne] = [textsOf(false)[2], textsOf(true)[2]];
  return {
    tokens: count,
    addMs,
    scan2KiBWithoutTokenNs: nsPerCall((t) => set.mask(t, '***'), without),
    scan2KiBWithTokenNs: nsPerCall((t) => set.mask(t, '***'), withOne),
  };
}

const results = {
  participants: PARTICIPANTS,
  tokenChars: tokens[0].length,
  reps: REPS,
  registerMs,
  registeredHeapMiB,
  redactNsPerText: { noTokensRegistered, [`${PARTICIPANTS}TokensRegistered`]: registered },
  indexAlone: [indexAlone(PARTICIPANTS), indexAlone(PARTICIPANTS * 10)],
};
console.log(JSON.stringify(results, null, 2));
await writeResults('redact', begun, results);
