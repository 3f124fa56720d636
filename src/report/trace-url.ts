/**
 * `--trace-url TEMPLATE` (docs/design.md §2.12): a URL with `{traceId}` where a trace id goes,
 * e.g. `https://tempo.example/trace/{traceId}`, that turns report.html's slowest trace ids
 * into links. Checked once (an http or https URL once filled in); filled with the id
 * percent-encoded, and the whole link escaped where it is written.
 */
import { ConfigError } from '../util/errors.js';
import { printable } from '../util/printable.js';

const PLACEHOLDER = '{traceId}';

/** The template, checked; ConfigError naming `flag` when it is not one. */
export function checkTraceUrlTemplate(template: string, flag = '--trace-url'): string {
  const text = template.trim();
  if (!text.includes(PLACEHOLDER)) throw new ConfigError(`${flag}: "${printable(template)}" has no {traceId} to put a trace id in`);
  let url: URL;
  try {
    url = new URL(text.replaceAll(PLACEHOLDER, '0'.repeat(32)));
  } catch {
    throw new ConfigError(`${flag}: "${printable(template)}" is not a URL once {traceId} is filled in`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${flag}: "${printable(template)}" must be an http or https URL`);
  return text;
}

/** The link of `traceId`, or null when the template is absent or no longer an http(s) URL (a hand-edited report). */
export function traceLink(template: string | undefined, traceId: string): string | null {
  if (template === undefined) return null;
  try {
    return checkTraceUrlTemplate(template).replaceAll(PLACEHOLDER, encodeURIComponent(traceId));
  } catch {
    return null;
  }
}
