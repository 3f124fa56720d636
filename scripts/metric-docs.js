// Rewrites the metric tables of the docs (docs/metrics.md, docs/reports.md) from the metric
// registry (src/metrics/registry/); test/metrics/metric-docs.test.ts fails until they agree.
//
//   npm run docs:metrics
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { METRIC_TABLES, spliceTable } from '../dist/metrics/registry/metric-tables.js';

const root = new URL('../', import.meta.url).pathname;
for (const [id, { doc, render }] of Object.entries(METRIC_TABLES)) {
  const path = join(root, doc);
  const before = await readFile(path, 'utf8');
  const after = spliceTable(before, id, render());
  if (after !== before) await writeFile(path, after);
  console.log(`${doc}: ${after === before ? 'up to date' : 'rewritten'}`);
}
