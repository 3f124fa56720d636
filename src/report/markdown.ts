/** GitHub-flavoured Markdown building blocks; every cell is escaped (see escapeMarkdown). */
import { escapeMarkdown } from './escape.js';
import type { Column } from './scenario-rows.js';

/** A pipe table; numeric columns are right-aligned. */
export function markdownTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const head = `| ${columns.map((column) => escapeMarkdown(column.title)).join(' | ')} |`;
  const rule = `|${columns.map((column) => (column.numeric ? '---:' : '---')).join('|')}|`;
  const body = rows.map((row) => `| ${row.map((cell) => escapeMarkdown(cell)).join(' | ')} |`);
  return [head, rule, ...body].join('\n');
}

export function markdownList(items: readonly string[]): string {
  return items.map((item) => `- ${escapeMarkdown(item)}`).join('\n');
}

/** A status as a glyph and word (colour alone never carries meaning). */
export function statusMark(status: string): string {
  if (status === 'pass') return '✅ pass';
  if (status === 'fail') return '❌ FAIL';
  if (status === 'skip') return '➖ skip';
  return status;
}
