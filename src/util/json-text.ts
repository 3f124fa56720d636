/**
 * JSON read from a user's file: strict JSON for reports and fixtures, JSONC (comments and
 * trailing commas) for profiles. A syntax error is one ConfigError line with
 * file:line:column, what is wrong, and a short printable excerpt of the text there; so is
 * nesting deeper than MAX_JSON_DEPTH, checked before any parser recurses into it.
 */
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import { ConfigError } from './errors.js';
import { MAX_JSON_DEPTH, tooDeepAt } from './json-depth.js';
import { printable } from './printable.js';

const PROBLEMS: Partial<Record<ReturnType<typeof printParseErrorCode>, string>> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'malformed number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'expected the end of the file',
  InvalidCommentToken: 'a comment (not allowed here)',
  UnexpectedEndOfComment: 'a comment that never ends',
  UnexpectedEndOfString: 'a string that never ends',
  UnexpectedEndOfNumber: 'a number that never ends',
  InvalidUnicode: 'a malformed \\u escape',
  InvalidEscapeCharacter: 'an invalid escape',
  InvalidCharacter: 'a control character inside a string',
};

/** How much of the text at the error an error line shows. */
const EXCERPT_CHARS = 24;

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

function describe(text: string, error: ParseError, source: string, kind: string): ConfigError {
  const { line, column } = lineAndColumn(text, error.offset);
  const problem = PROBLEMS[printParseErrorCode(error.error)] ?? 'a syntax error';
  const rest = text.slice(error.offset);
  const at = rest.trim() === '' ? 'at the end of the file' : `at "${printable(rest, EXCERPT_CHARS)}"`;
  return new ConfigError(`${source}:${line}:${column}: not valid ${kind}: ${problem} ${at}`);
}

/** A problem of a JSON text and where it starts, so that a reader can tell which of two problems comes first. */
export interface JsonProblem {
  offset: number;
  error: ConfigError;
}

function withoutBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

function tooDeep(body: string, source: string): JsonProblem | null {
  const offset = tooDeepAt(body);
  if (offset === -1) return null;
  const { line, column } = lineAndColumn(body, offset);
  return {
    offset,
    error: new ConfigError(`${source}:${line}:${column}: nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays, the most coachbench reads`),
  };
}

const kindOf = (options: { jsonc: boolean }): string => (options.jsonc ? 'JSON (comments and trailing commas are allowed)' : 'JSON');

/** The first problem of `text` (nesting too deep, then syntax), or null when it parses. Offsets are after a byte-order mark. */
export function jsonProblem(text: string, source: string, options: { jsonc: boolean }): JsonProblem | null {
  const body = withoutBom(text);
  const deep = tooDeep(body, source);
  if (deep !== null) return deep;
  const errors: ParseError[] = [];
  parse(body, errors, { allowTrailingComma: options.jsonc, disallowComments: !options.jsonc, allowEmptyContent: false });
  const first = errors[0];
  return first ? { offset: first.offset, error: describe(body, first, source, kindOf(options)) } : null;
}

/**
 * Parses `text` read from `source` (a path, for the message). `jsonc` allows comments and
 * trailing commas. A leading byte-order mark is ignored. Throws a one-line ConfigError.
 * Files are read through read-json-file.ts, which checks their size and UTF-8 first.
 */
export function parseJsonText(text: string, source: string, options: { jsonc: boolean }): unknown {
  const body = withoutBom(text);
  const deep = tooDeep(body, source);
  if (deep !== null) throw deep.error;
  if (!options.jsonc) {
    // JSON.parse is several times faster on a large report; the JSONC parser only explains a failure.
    try {
      return JSON.parse(body) as unknown;
    } catch {
      // Described below.
    }
  }
  const errors: ParseError[] = [];
  const data: unknown = parse(body, errors, { allowTrailingComma: options.jsonc, disallowComments: !options.jsonc, allowEmptyContent: false });
  const first = errors[0];
  if (first) throw describe(body, first, source, kindOf(options));
  if (!options.jsonc) throw new ConfigError(`${source}: not valid JSON`);
  return data;
}
