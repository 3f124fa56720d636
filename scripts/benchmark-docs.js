// Rewrites the results table of docs/benchmarks.md from the latest bench/results/<benchmark>.json
// of every benchmark (bench/lib/results-table.ts); test/bench/benchmark-docs.test.ts fails until
// they agree. Run it after a benchmark has rewritten its results file.
//
//   npm run docs:benchmarks
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { renderResultsTable, spliceResultsTable } from '../bench/lib/results-table.ts';

const root = new URL('../', import.meta.url);
const read = (benchmark) => {
  try {
    return JSON.parse(readFileSync(new URL(`bench/results/${benchmark}.json`, root), 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw error;
  }
};
const doc = new URL('docs/benchmarks.md', root);
const before = await readFile(doc, 'utf8');
const after = spliceResultsTable(before, renderResultsTable(read));
if (after !== before) await writeFile(doc, after);
console.log(`docs/benchmarks.md: ${after === before ? 'up to date' : 'results table rewritten'}`);
