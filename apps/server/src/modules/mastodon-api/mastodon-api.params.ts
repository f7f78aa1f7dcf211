import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MEDIA_LIMITS } from '@share-arts/contract';
import { mastoError, validationFailed } from './errors.js';

/**
 * Mastodon's clients send their parameters as JSON, as a form (`application/x-www-form-urlencoded`, Rails' nested
 * names: `media_ids[]=1&media_ids[]=2`, `fields_attributes[0][name]=…`) or as multipart/form-data (uploads,
 * update_credentials). In the Mastodon API's scope (only there: the rest of the site reads forms as JSON, for
 * older clients) a form is read as Rails reads it, and multipart is read by `readMultipart`.
 */
export type Params = { [key: string]: ParamValue };
export type ParamValue = string | ParamValue[] | Params;

/** Rails' nested parameter names into an object: `a[]` is a list, `a[b]` a member, `a[0][b]` a list of members. */
export function railsParams(pairs: Iterable<[string, string]>): Params {
  const root: Params = {};
  for (const [name, value] of pairs) {
    const keys = name.match(/^[^[\]]+|\[[^[\]]*\]/g)?.map((key) => key.replace(/^\[|\]$/g, '')) ?? [name];
    if (keys.some((key) => key === '__proto__' || key === 'constructor' || key === 'prototype')) continue;
    let node: Params | ParamValue[] = root;
    keys.forEach((key, i) => {
      const last = i === keys.length - 1;
      const nextKey = keys[i + 1];
      if (Array.isArray(node)) {
        if (last) node.push(value);
        else {
          const child: Params = {};
          node.push(child);
          node = child;
        }
        return;
      }
      if (last) {
        node[key] = value;
        return;
      }
      const existing: ParamValue | undefined = node[key];
      if (nextKey === '') {
        if (!Array.isArray(existing)) node[key] = [];
        node = node[key] as ParamValue[];
      } else {
        if (existing === undefined || typeof existing === 'string' || Array.isArray(existing)) node[key] = {};
        node = node[key] as Params;
      }
    });
  }
  return root;
}

/** The forms of the Mastodon scope, and multipart (one file of at most 20 MB, as POST /api/media). */
export async function registerMastodonBodies(scope: FastifyInstance): Promise<void> {
  scope.removeContentTypeParser('application/x-www-form-urlencoded');
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    // A JSON body labelled as a form (some scripts do): read as JSON.
    if (/^\s*[{[]/.test(text)) {
      try {
        return done(null, JSON.parse(text) as unknown);
      } catch {
        return done(validationFailed('the body is neither a form nor JSON'), undefined);
      }
    }
    done(null, railsParams(new URLSearchParams(text)));
  });
  await scope.register(multipart, {
    limits: {
      fileSize: MEDIA_LIMITS.maxBytes,
      files: 2,
      fields: 200,
      fieldSize: 10_000,
      fieldNameSize: 200,
      headerPairs: 100,
    },
    throwFileSizeLimit: true,
  });
}

export interface UploadedFile {
  field: string;
  name: string | undefined;
  data: Buffer;
}

/** A multipart body's fields (Rails' nested names) and files; a malformed body is a 422. */
export async function readMultipart(request: FastifyRequest): Promise<{ params: Params; files: UploadedFile[] }> {
  const pairs: [string, string][] = [];
  const files: UploadedFile[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') files.push({ field: part.fieldname, name: part.filename, data: await part.toBuffer() });
      else pairs.push([part.fieldname, String(part.value)]);
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw mastoError(413, `Validation failed: the file is larger than ${MEDIA_LIMITS.maxBytes / 1024 / 1024} MB`);
    }
    throw validationFailed('the multipart/form-data body is malformed');
  }
  return { params: railsParams(pairs), files };
}

/** The request's parameters, whatever form they came in (JSON, a form, multipart), with its files. */
export async function paramsOf(request: FastifyRequest): Promise<{ params: Params; files: UploadedFile[] }> {
  if (request.isMultipart()) return readMultipart(request);
  const body = request.body;
  if (body === undefined || body === null) return { params: {}, files: [] };
  if (typeof body !== 'object' || Array.isArray(body)) throw validationFailed('the body must be an object');
  return { params: body as Params, files: [] };
}

// Readers of one parameter, each a 422 in Mastodon's words when it has the wrong type.

export function text(params: Params, name: string): string | undefined {
  const value: unknown = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw validationFailed(`${name} must be a string`);
}

export function flag(params: Params, name: string): boolean | undefined {
  const value: unknown = params[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1' || value === 'on') return true;
  if (value === 'false' || value === '0' || value === 'off') return false;
  throw validationFailed(`${name} must be true or false`);
}

export function list(params: Params, name: string): string[] | undefined {
  const value: unknown = params[name] ?? params[`${name}[]`];
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'number') return String(item);
    throw validationFailed(`${name} must be a list of strings`);
  });
}

export function object(params: Params, name: string): Params | undefined {
  const value: unknown = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object' && !Array.isArray(value)) return value as Params;
  throw validationFailed(`${name} must be an object`);
}
