import { HttpError } from '../../lib/http-error.js';

/**
 * The schema of each of masto-more's Mastodon routes: hidden from our own OpenAPI document (which describes our API;
 * docs/mastodon-api.md lists the Mastodon routes and their state, and Mastodon's own documentation their shapes).
 */
export const MASTODON_ROUTE = { hide: true } as const;

/**
 * Mastodon's list parameters arrive as `name[]=a&name[]=b` (Rails' form), `name=a&name=b` or `name=a` (and, in a
 * JSON or form body, as an array): the values given under either name, as strings. Anything else is not a value.
 */
export function listParam(source: unknown, name: string): string[] {
  if (typeof source !== 'object' || source === null) return [];
  const record = source as Record<string, unknown>;
  const values = [record[name], record[`${name}[]`]].flat();
  return values.filter((value): value is string => typeof value === 'string' && value.length > 0);
}

/** One text parameter of a query or body (the first when repeated); undefined when absent or empty. */
export function textParam(source: unknown, name: string): string | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const value = (source as Record<string, unknown>)[name];
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'number' || typeof first === 'boolean') return String(first);
  return typeof first === 'string' && first.length > 0 ? first : undefined;
}

/** A boolean as Mastodon's clients send it: true, "true", "1", "on"; false, "false", "0", "off"; else `fallback`. */
export function booleanParam(source: unknown, name: string, fallback: boolean): boolean {
  const value = textParam(source, name);
  if (value === undefined) return fallback;
  if (['true', '1', 'on'].includes(value.toLowerCase())) return true;
  if (['false', '0', 'off'].includes(value.toLowerCase())) return false;
  throw new HttpError(422, `Validation failed: ${name} must be true or false`);
}

/** Mastodon's `limit`: a whole number, `fallback` when absent, at most `max` (larger asks are cut, as Mastodon does). */
export function limitParam(source: unknown, fallback: number, max: number): number {
  const value = textParam(source, 'limit');
  if (value === undefined) return fallback;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1)
    throw new HttpError(422, 'Validation failed: limit must be a positive whole number');
  return Math.min(limit, max);
}

/** Mastodon's `offset`: a whole number from 0 (absent: 0). */
export function offsetParam(source: unknown, max: number): number {
  const value = textParam(source, 'offset');
  if (value === undefined) return 0;
  const offset = Number(value);
  if (!Number.isInteger(offset) || offset < 0 || offset > max)
    throw new HttpError(422, `Validation failed: offset must be a whole number from 0 to ${max}`);
  return offset;
}

/** An object parameter of a body: `{home: {last_read_id}}` in JSON, or `home[last_read_id]=…` in a form. */
export function objectParam(source: unknown, name: string): Record<string, unknown> | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const record = source as Record<string, unknown>;
  const nested = record[name];
  if (typeof nested === 'object' && nested !== null && !Array.isArray(nested)) return nested as Record<string, unknown>;
  const prefix = `${name}[`;
  const flat = Object.entries(record).filter(([key]) => key.startsWith(prefix) && key.endsWith(']'));
  if (flat.length === 0) return undefined;
  return Object.fromEntries(flat.map(([key, value]) => [key.slice(prefix.length, -1), value]));
}
