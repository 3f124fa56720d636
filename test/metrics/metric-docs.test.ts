/**
 * The metric tables of docs/metrics.md and docs/reports.md are the registry's
 * (src/metrics/registry/metric-tables.ts): a doc that says otherwise fails here, and
 * `npm run docs:metrics` rewrites it.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { EXPORTED } from '../../src/metrics/registry/exported-families.js';
import { METRIC_TABLES, type MetricTableId, spliceTable } from '../../src/metrics/registry/metric-tables.js';

const read = (doc: string): Promise<string> => readFile(new URL(`../../${doc}`, import.meta.url), 'utf8');

describe('the generated metric tables', () => {
  for (const [id, { doc, render }] of Object.entries(METRIC_TABLES)) {
    it(`${doc} holds the registry's ${id} table (npm run docs:metrics rewrites it)`, async () => {
      const text = await read(doc);
      expect(spliceTable(text, id as MetricTableId, render())).toBe(text);
    });
  }

  it('a doc whose table disagrees by one cell is told apart, and one without markers is refused', async () => {
    const { doc, render } = METRIC_TABLES.exported;
    const text = await read(doc);
    const edited = text.replace(`| \`${EXPORTED.events.name}\` | counter |`, `| \`${EXPORTED.events.name}\` | gauge |`);
    expect(edited).not.toBe(text);
    expect(spliceTable(edited, 'exported', render())).toBe(text);
    expect(() => spliceTable('# no table here\n', 'report', render())).toThrow(/metric-table:report/);
  });

  it('lists every exported metric by its Prometheus name', () => {
    const table = METRIC_TABLES.exported.render();
    for (const metric of Object.values(EXPORTED)) expect(table).toContain(`| \`${metric.name}\` | ${metric.kind} |`);
  });
});
