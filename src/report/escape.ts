/**
 * Escaping for every rendered format. Report strings (details, samples, event types,
 * warnings, even the profile name) can come from the target under test: treat all of
 * them as hostile.
 */

/** Characters XML 1.0 forbids even when escaped (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/F). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are exactly what must be found and replaced.
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text or attribute value for HTML, SVG and XML: quotes escaped too, forbidden chars replaced. */
export function escapeXml(text: string): string {
  return text
    .replace(XML_FORBIDDEN, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * One table-cell-safe line of Markdown (GitHub flavoured): HTML-significant characters
 * become entities, Markdown syntax characters are backslash-escaped, line breaks become
 * spaces, so a hostile string can neither inject HTML nor break the table.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(XML_FORBIDDEN, '\uFFFD')
    .replace(/[\r\n]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]()#+!|~])/g, '\\$1');
}
