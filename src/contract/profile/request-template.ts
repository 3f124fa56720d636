/**
 * Templates of the `requests` scenario (docs/design.md §2.15): text with `{name}` placeholders
 * filled from a closed set of values, never code. A placeholder is `{` + a name + `}`; any
 * other brace is literal, so a JSON text such as `{"limit": {seq}}` needs no escaping (a JSON
 * key is always quoted, so `{name}` never occurs in JSON). Pure: no I/O.
 */
import { ConfigError } from '../../util/errors.js';
import { printable } from '../../util/printable.js';

/**
 * The values a template may name, each drawn per request: the participant is picked by the
 * request's index (`seq`) among this process's participants.
 */
export const TEMPLATE_VARIABLES = {
  userId: "the participant's user id (fixtures)",
  userNumber: "the digits that end the participant's user id (p-000042 → 000042): the reference service numbers plans and cards by them",
  sessionId: "one of the participant's chat sessions (fixtures), turn by turn",
  participantToken: "the participant's bearer token (fixtures)",
  coachToken: 'the coach token (fixtures `coachToken` or COACHBENCH_COACH_TOKEN)',
  apiKey: 'the API key',
  seq: "the request's index within its kind: 0, 1, 2, …",
  unique: 'a name no other request of the run uses: `cb-<run tag>-<kind>-<seq>`',
} as const;

export type TemplateVariable = keyof typeof TEMPLATE_VARIABLES;
const NAMES = Object.keys(TEMPLATE_VARIABLES) as TemplateVariable[];

/** A value a setup request captured: `{setup.NAME}`. */
export const SETUP_PREFIX = 'setup.';

/** One piece of a compiled template. */
export type TemplatePart = { text: string } | { name: string };

const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)?)\}/g;

/**
 * Splits `template` into literal text and placeholders, checking each name: one of
 * TEMPLATE_VARIABLES, or `setup.NAME` with NAME among `captured`. `where` names the profile
 * field; a bad name throws one ConfigError naming it.
 */
export function compileTemplate(template: string, where: string, captured: ReadonlySet<string> = new Set()): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1] as string;
    if (name.startsWith(SETUP_PREFIX)) {
      if (!captured.has(name.slice(SETUP_PREFIX.length))) {
        const known = [...captured].map((c) => `setup.${c}`).join(', ') || 'none';
        throw new ConfigError(`${where}: unknown variable {${printable(name)}} (no setup request captures it; captured: ${known})`);
      }
    } else if (!(NAMES as string[]).includes(name)) {
      throw new ConfigError(`${where}: unknown variable {${printable(name)}} (known: ${NAMES.map((n) => `{${n}}`).join(', ')}, {setup.NAME})`);
    }
    const at = match.index ?? 0;
    if (at > last) parts.push({ text: template.slice(last, at) });
    parts.push({ name });
    last = at + match[0].length;
  }
  if (last < template.length) parts.push({ text: template.slice(last) });
  return parts;
}

/** The names a compiled template uses. */
export const variablesOf = (parts: readonly TemplatePart[]): string[] => parts.flatMap((part) => ('name' in part ? [part.name] : []));

/** Fills a compiled template; `encode` transforms each value (URL encoding in a path, JSON escaping in a JSON text). */
export function fillTemplate(parts: readonly TemplatePart[], values: (name: string) => string, encode: (value: string) => string = (v) => v): string {
  let out = '';
  for (const part of parts) out += 'text' in part ? part.text : encode(values(part.name));
  return out;
}

/** A value escaped for a JSON string's inside: `{seq}` stays digits, so `{"limit": {seq}}` is JSON too. */
export const jsonEscape = (value: string): string => JSON.stringify(value).slice(1, -1);

/** Sample values that show whether a JSON text template stays JSON: digits, as `{seq}` gives. */
const SAMPLE_VALUE = '7';

/**
 * Checks that a JSON text template is JSON once filled, whatever the values: filled with a
 * sample (digits, so a placeholder standing for a number passes) it must parse.
 */
export function checkJsonTemplate(parts: readonly TemplatePart[], where: string): void {
  const text = fillTemplate(parts, () => SAMPLE_VALUE, jsonEscape);
  try {
    JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${where}: not JSON after substitution (${(error as Error).message})`);
  }
}

/**
 * A body given as a JSON value, as a JSON text template: its strings (keys and values) may
 * hold placeholders, which then sit inside JSON strings, so filling with jsonEscape keeps it JSON.
 */
export const jsonValueTemplate = (value: unknown): string => JSON.stringify(value);
