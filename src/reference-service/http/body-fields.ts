/**
 * Field checks for JSON bodies. Each throws a 400 problem naming the field, so clients learn
 * exactly which part of their body the reference target refused.
 */

import type { JsonValue } from '../state/store-types.js';
import { problems } from './problem.js';

/** A parsed JSON object body. */
export type JsonObject = Record<string, unknown>;

/** The value as a JSON object, or a 400 naming `what`. */
export function asObject(value: unknown, what = 'the request body'): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw problems.badRequest(`${what} must be a JSON object`);
  }
  return value as JsonObject;
}

/** A non-empty string of at most `maxLength` characters, else 400. */
export function requiredString(body: JsonObject, key: string, maxLength = 200): string {
  const value = body[key];
  if (typeof value !== 'string' || value.length === 0) throw problems.badRequest(`"${key}" must be a non-empty string`);
  if (value.length > maxLength) throw problems.badRequest(`"${key}" must be at most ${maxLength} characters`);
  return value;
}

/** Like requiredString, but absent or null reads as undefined. */
export function optionalString(body: JsonObject, key: string, maxLength = 200): string | undefined {
  return body[key] === undefined || body[key] === null ? undefined : requiredString(body, key, maxLength);
}

/** A boolean, or undefined when absent or null; anything else is a 400. */
export function optionalBoolean(body: JsonObject, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw problems.badRequest(`"${key}" must be a boolean`);
  return value;
}

/** An integer in min..max, or undefined when absent or null; anything else is a 400. */
export function optionalInteger(body: JsonObject, key: string, min: number, max: number): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw problems.badRequest(`"${key}" must be an integer in ${min}..${max}`);
  }
  return value;
}

/** A non-empty array of non-empty strings (at most `maxItems`, each at most `maxLength`). */
export function stringArray(body: JsonObject, key: string, maxItems = 100, maxLength = 100): string[] {
  const value = body[key];
  if (!Array.isArray(value) || value.length === 0) throw problems.badRequest(`"${key}" must be a non-empty array of strings`);
  if (value.length > maxItems) throw problems.badRequest(`"${key}" may hold at most ${maxItems} items`);
  for (const item of value) {
    if (typeof item !== 'string' || item.length === 0 || item.length > maxLength) {
      throw problems.badRequest(`every item of "${key}" must be a non-empty string of at most ${maxLength} characters`);
    }
  }
  return value as string[];
}

/** Like stringArray, but absent, null or empty reads as undefined. */
export function optionalStringArray(body: JsonObject, key: string): string[] | undefined {
  const value = body[key];
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return undefined;
  return stringArray(body, key);
}

/** A JSON object, or undefined when absent or null. */
export function optionalRecord(body: JsonObject, key: string): Record<string, JsonValue> | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  return asObject(value, `"${key}"`) as Record<string, JsonValue>;
}

/** `limit` (1..500, default 50) and `offset` (>= 0, default 0) of the search endpoints. */
export function paging(body: JsonObject): { limit: number; offset: number } {
  return {
    limit: optionalInteger(body, 'limit', 1, 500) ?? 50,
    offset: optionalInteger(body, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0,
  };
}
