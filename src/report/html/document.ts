/**
 * The shell of every self-contained HTML page coachbench writes (report and compare).
 * No script at all, and a CSP that forbids any: even if an escaping bug slipped through,
 * nothing could run or load from the network.
 */
import { escapeXml } from '../escape.js';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/**
 * A complete HTML document: `title` is escaped here; `css` and `body` are trusted markup.
 * `csp` replaces the no-script policy only for a page served live (the run's dashboard).
 */
export function htmlDocument(title: string, css: string, body: readonly string[], csp: string = CSP): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="generator" content="coachbench">',
    `<title>${escapeXml(title)}</title>`,
    `<style>${css}</style>`,
    '</head>',
    '<body>',
    '<main>',
    ...body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
