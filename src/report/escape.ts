/**
 * Escaping for every rendered format. Report strings (details, samples, event types,
 * warnings, even the profile name) can come from the target under test: treat all of
 * them as hostile. Invisible characters (controls XML 1.0 forbids, ESC, DEL, C1, bidi
 * controls) become visible escapes (`\x1b`, `\u{202e}`) as on a terminal (printable.ts),
 * so neither a browser, nor a test runner's XML parser, nor `cat summary.md` meets them.
 */
import { escapeInvisible } from '../util/printable.js';

/** Text or attribute value for HTML, SVG and XML: quotes escaped too, invisible characters but tab and line feed made visible. */
export function escapeXml(text: string): string {
  return escapeInvisible(text, '\t\n').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * One table-cell-safe line of Markdown (GitHub flavoured): HTML-significant characters
 * become entities, Markdown syntax characters are backslash-escaped, line breaks become
 * spaces, other invisible characters visible escapes, so a hostile string can neither
 * inject HTML nor break the table.
 */
export function escapeMarkdown(text: string): string {
  return escapeInvisible(text.replace(/[\r\n]+/g, ' '), '\t')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]()#+!|~])/g, '\\$1');
}
