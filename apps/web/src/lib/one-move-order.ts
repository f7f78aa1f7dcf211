/**
 * A list's order as the web app changes it, one move per request (issue 41: a series' works, a collection's works):
 * the server moves one item per request, named by the item it is to follow (`after`, null for first), so every move,
 * by keyboard or by drag, is turned into that one answer. Pure functions over the items loaded so far (the lists page
 * by keyset; a move never reaches past what is on screen). The server's side is apps/server/src/lib/sparse-order.ts.
 */

/** One move for the server: put the work right after `after` (null: first). */
export interface OrderMove {
  postId: string;
  after: string | null;
}

/**
 * The move that takes the work at `index` one place earlier (`by` -1) or later (+1), or null when it is
 * already at that end of the loaded works.
 */
export function stepMove(ids: readonly string[], index: number, by: -1 | 1): OrderMove | null {
  const postId = ids[index];
  if (postId === undefined) return null;
  if (by === -1) {
    if (index === 0) return null;
    return { postId, after: ids[index - 2] ?? null };
  }
  const next = ids[index + 1];
  return next === undefined ? null : { postId, after: next };
}

/**
 * The move that leaves `postId` where a drag put it in `dropped` (the order as shown when it was let go),
 * or null when it ended where it started in `before`.
 */
export function dropMove(before: readonly string[], dropped: readonly string[], postId: string): OrderMove | null {
  const from = before.indexOf(postId);
  const to = dropped.indexOf(postId);
  if (from === -1 || to === -1 || from === to) return null;
  return { postId, after: to === 0 ? null : dropped[to - 1]! };
}

/** `items` with the one named by `move` taken out and put right after `move.after` (first when null). */
export function applyMove<T>(items: readonly T[], idOf: (item: T) => string, move: OrderMove): T[] {
  const from = items.findIndex((item) => idOf(item) === move.postId);
  if (from === -1) return [...items];
  const rest = items.filter((_, index) => index !== from);
  if (move.after === null) return [items[from]!, ...rest];
  const anchor = rest.findIndex((item) => idOf(item) === move.after);
  // The anchor is not loaded here (another tab moved it away): the order is left as it is.
  if (anchor === -1) return [...items];
  return [...rest.slice(0, anchor + 1), items[from]!, ...rest.slice(anchor + 1)];
}

/** `items` with one dragged to `index` (what the drag shows while the pointer moves; clamped to the list). */
export function moveTo<T>(items: readonly T[], idOf: (item: T) => string, id: string, index: number): T[] {
  const from = items.findIndex((item) => idOf(item) === id);
  if (from === -1) return [...items];
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(next.length, index)), 0, moved!);
  return next;
}

/** The items of every loaded page, each once (a page read after a move may repeat an item read before it). */
export function uniqueById<T>(items: readonly T[], idOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const id = idOf(item);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
