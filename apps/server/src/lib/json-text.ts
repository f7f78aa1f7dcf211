import type { FastifyReply } from 'fastify';

/**
 * JSON that is already serialized (a cached post, for one), put into an answer as is. Serializing a
 * page of posts object by object costs as much as the rest of the request; joining their cached JSON
 * costs almost nothing.
 */
export class JsonText {
  constructor(readonly text: string) {}

  /** Anything that serializes it the ordinary way still gets the right value. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

const encode = (value: unknown): string => {
  if (value instanceof JsonText) return value.text;
  if (Array.isArray(value) && value.some((item) => item instanceof JsonText)) {
    return `[${value.map(encode).join(',')}]`;
  }
  return JSON.stringify(value) ?? 'null';
};

/** The answer's JSON: `fields` serialized, with JsonText (and arrays of it) spliced in as they are. */
export function jsonBody(fields: object): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) parts.push(`${JSON.stringify(key)}:${encode(value)}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * Sends `fields` as the JSON answer, bypassing the route's response serializer (which would rebuild
 * every cached post). The route's schema still documents the shape, and the tests check the answers
 * against it.
 */
export function sendJson(reply: FastifyReply, fields: object): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(jsonBody(fields));
}
