import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { encodeCursor } from '../../lib/cursor.js';
import { isUuid } from '../../lib/ids.js';

/**
 * Mastodon's paging (https://docs.joinmastodon.org/api/guidelines/#pagination) over ours.
 *
 * Our ids are random UUIDs (v4), not Mastodon's time-ordered snowflakes, and our lists page by an opaque keyset
 * cursor (a row's sort key). So:
 * - `max_id` is the id of the last item a client has (a status, an account): the next page is read from that
 *   item's sort key (its [created_at, id] in the list), exactly the items after it. A `max_id` naming nothing
 *   in the list is a 404 `Record not found`, as an unknown id; it may also be an opaque cursor this server put
 *   in a `Link` header (lists ordered by something else than their items' ids: favourites, bookmarks).
 * - `since_id` / `min_id` (newer than an item): read from the top of the list down to that item, at most
 *   NEWER_READ_MAX items; `since_id` answers the newest `limit` of them, `min_id` the oldest `limit` (the page
 *   right above the item).
 * - `limit`: Mastodon's default 20 and maximum 40 (larger values are lowered to 40, as Mastodon does).
 * - The `Link` header carries `rel="next"` (`max_id` of the last item) when there may be more, and
 *   `rel="prev"` (`min_id` of the first item) when the page is not empty.
 * Clients must not compare our ids numerically (they are not ordered); they follow the `Link` header, or send
 * the last item's id as `max_id`, which both work.
 */
export const MASTO_PAGE = { default: 20, max: 40 } as const;
/** How many items a `since_id`/`min_id` page reads at most from the top of a list to find the item. */
export const NEWER_READ_MAX = 400;

export const MastoPageQuery = Type.Object({
  max_id: Type.Optional(Type.String({ maxLength: 300 })),
  since_id: Type.Optional(Type.String({ maxLength: 300 })),
  min_id: Type.Optional(Type.String({ maxLength: 300 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: 'Default 20; above 40 reads as 40' })),
});
export type MastoPageQuery = Static<typeof MastoPageQuery>;

export const pageLimit = (query: { limit?: number | undefined }): number =>
  Math.min(query.limit ?? MASTO_PAGE.default, MASTO_PAGE.max);

/** A sort key as our keyset cursor (the `latest` shape: a time and a uuid). */
export const cursorOf = (key: { created_at: Date; id: string }): string => encodeCursor([key.created_at, key.id]);

/** A max_id that is one of our cursors rather than an id (a Link header's, for lists not ordered by item). */
export const isCursor = (value: string): boolean => !isUuid(value) && /^[A-Za-z0-9_-]+$/.test(value);

/**
 * Items newer than `stopId` out of a newest-first list read page by page (`read(cursor)`): since_id gives the
 * newest `limit`, min_id the oldest `limit`, both newest first as Mastodon answers.
 */
export async function newerThan<Item>(
  stopId: string,
  mode: 'since' | 'min',
  limit: number,
  idOf: (item: Item) => string,
  read: (cursor: string | undefined) => Promise<{ items: Item[]; nextCursor: string | null }>,
): Promise<Item[]> {
  const newer: Item[] = [];
  let cursor: string | undefined;
  const stop = stopId.toLowerCase();
  for (;;) {
    const page = await read(cursor);
    for (const item of page.items) {
      if (idOf(item).toLowerCase() === stop) return pick(newer, mode, limit);
      newer.push(item);
    }
    if (!page.nextCursor || newer.length >= NEWER_READ_MAX) return pick(newer, mode, limit);
    cursor = page.nextCursor;
  }
}

const pick = <Item>(items: Item[], mode: 'since' | 'min', limit: number): Item[] =>
  mode === 'since' ? items.slice(0, limit) : items.slice(Math.max(0, items.length - limit));

/** The request's own address (path and query) with some query parameters replaced. */
function pageUrl(request: FastifyRequest, origin: string, params: Record<string, string>): string {
  const url = new URL(request.url, origin);
  for (const name of ['max_id', 'min_id', 'since_id']) url.searchParams.delete(name);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * Sets Mastodon's `Link` header: `next` with `max_id` (the last item's id, or our cursor where the list is not
 * ordered by its items), `prev` with `min_id` (the first item's id).
 */
export function setLinkHeader(
  reply: FastifyReply,
  request: FastifyRequest,
  origin: string,
  { next, prev }: { next?: string | null | undefined; prev?: string | null | undefined },
): void {
  const links: string[] = [];
  if (next) links.push(`<${pageUrl(request, origin, { max_id: next })}>; rel="next"`);
  if (prev) links.push(`<${pageUrl(request, origin, { min_id: prev })}>; rel="prev"`);
  if (links.length > 0) reply.header('link', links.join(', '));
}
