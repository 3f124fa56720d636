// Rewrites what the metric registry (src/metrics/registry/) decides in the hand-kept files:
// the metric tables of the docs (docs/metrics.md, docs/reports.md) and the metric fields of
// schemas/report.schema.json. test/metrics/metric-docs.test.ts and
// test/metrics/report-schema-registry.test.ts fail until they agree.
//
//   npm run docs:metrics
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { METRIC_TABLES, spliceTable } from '../dist/metrics/registry/metric-tables.js';
import { withRegistryMetrics } from '../dist/metrics/registry/report-schema.js';

const root = new URL('../', import.meta.url).pathname;

/** Writes `path` when `rewrite` changes it; says which. */
async function rewrite(relative, change) {
  const path = join(root, relative);
  const before = await readFile(path, 'utf8');
  const after = change(before);
  if (after !== before) await writeFile(path, after);
  console.log(`${relative}: ${after === before ? 'up to date' : 'rewritten'}`);
  return after !== before;
}

for (const [id, { doc, render }] of Object.entries(METRIC_TABLES)) await rewrite(doc, (text) => spliceTable(text, id, render()));
const schema = 'schemas/report.schema.json';
if (await rewrite(schema, (text) => withRegistryMetrics(text))) {
  // The fields written are in jsonc-parser's layout: Biome's is the repository's.
  execFileSync(process.execPath, [join(root, 'node_modules/@biomejs/biome/bin/biome'), 'format', '--write', join(root, schema)], { stdio: 'inherit' });
}
