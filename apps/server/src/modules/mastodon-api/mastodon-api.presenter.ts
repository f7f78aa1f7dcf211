import type { Comment, Post } from '@share-arts/contract';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import { JsonText } from '../../lib/json-text.js';
import { extractMentions } from '../../lib/mentions.js';
import { photoUrl } from '../users/index.js';
import {
  commentToStatus,
  toAccount,
  toStatus,
  type AccountSource,
  type MastoAccount,
  type MastoMention,
  type MastoStatus,
} from './entities/index.js';
import { recordNotFound } from './errors.js';
import { selectPresentation, type AccountRow } from './mastodon-api.sql.js';

/** How long this process remembers an account, a mentioned name and a pin (see `gather`), and how many of each. */
const REMEMBER_MS = 5000;
const REMEMBER_MAX = 20_000;
/** How many works' Statuses this process keeps with the JSON they were made of (see `statuses`). */
const MADE_MAX = 2000;

const iso = (value: string | Date) => (value instanceof Date ? value : new Date(value)).toISOString();

function sourceOf(row: AccountRow): AccountSource {
  return {
    _id: row.id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    userPhoto: photoUrl(row.photo_url),
    bio: row.bio,
    link: row.link,
    createdAt: iso(row.created_at),
    followerCount: Number(row.follower_count),
    followingCount: Number(row.following_count),
    postCount: Number(row.post_count),
    worksSignedInOnly: row.works_signed_in_only,
    ...(row.remote_handle ? { remote: { handle: row.remote_handle, url: row.remote_url ?? '' } } : {}),
  };
}

/**
 * Our JSON as Mastodon's, for a page at a time: the people of a page read in one statement (Account), the works a
 * service answered (already filtered for the viewer) as Statuses with their authors, mentions and pins, comments
 * as replies. Shared by every route file of the Mastodon API (`MastodonDeps.present`).
 */
export function createMastodonPresenter({ db, publicOrigin }: { db: Db; publicOrigin: string | undefined }) {
  /** The site's origin as clients reach it: PUBLIC_ORIGIN, else the request's own scheme and host. */
  const origin = (request: FastifyRequest): string => publicOrigin ?? `${request.protocol}://${request.host}`;

  /**
   * The Account made of a row (and of the row it moved to), kept with that row: the rows `gather` remembers are
   * the same objects for REMEMBER_MS, so a page's artists are not made again on each request (issue 45's
   * performance: a Home page through this API ≥ 0.8× our own). Nothing changes an Account once made.
   */
  const madeAccounts = new WeakMap<AccountRow, { at: string; target: AccountRow | undefined; account: MastoAccount }>();

  /** Accounts out of their rows (a moved account's target among them), by id. */
  function accountsOf(rows: AccountRow[], at: string): Map<string, MastoAccount> {
    const byId = new Map(rows.map((row) => [row.id, row]));
    const plain = (row: AccountRow) =>
      toAccount(sourceOf(row), at, {
        aiOptOut: row.remote_handle ? false : row.ai_training_opt_out,
        lastStatusAt: row.last_status_at ? iso(row.last_status_at).slice(0, 10) : null,
      });
    return new Map(
      rows.map((row) => {
        const target = row.moved_to_id ? byId.get(row.moved_to_id) : undefined;
        const made = madeAccounts.get(row);
        if (made && made.at === at && made.target === target) return [row.id, made.account] as const;
        const account = plain(row);
        const whole = target ? { ...account, moved: plain(target) } : account;
        madeAccounts.set(row, { at, target, account: whole });
        return [row.id, whole] as const;
      }),
    );
  }

  /**
   * What pages need besides their items (accounts, the people texts mention, pins), remembered for a few seconds
   * (REMEMBER_MS) in this process: a Home page's 20 works by a few artists would otherwise read the same accounts on
   * every request. This process's own writes through this API forget what they change at once (`forget`); another
   * process's, or the web app's, show within REMEMBER_MS (a follower count, a new bio, a pin).
   */
  const remembered = {
    accounts: new Map<string, { at: number; row: AccountRow | null }>(),
    mentions: new Map<string, { at: number; row: { id: string; username: string } | null }>(),
    pins: new Map<string, { at: number; pinned: boolean }>(),
  };
  function fresh<V extends { at: number }>(map: Map<string, V>, key: string, now: number): V | undefined {
    const entry = map.get(key);
    return entry && now - entry.at < REMEMBER_MS ? entry : undefined;
  }
  function keep<V>(map: Map<string, V>, key: string, value: V): void {
    if (map.size >= REMEMBER_MAX) map.delete(map.keys().next().value!);
    map.set(key, value);
  }

  /** What a page needs besides its items: read in one statement, only what is not remembered. */
  async function gather(ids: readonly string[], texts: readonly string[], postIds: readonly string[], at: string) {
    const now = Date.now();
    const wantedIds = new Set(ids.map((id) => id.toLowerCase()));
    // The accounts they moved to, when remembered as moved.
    for (const id of [...wantedIds]) {
      const moved = fresh(remembered.accounts, id, now)?.row?.moved_to_id;
      if (moved) wantedIds.add(moved);
    }
    const names = [...new Set(texts.flatMap((text) => extractMentions(text)))];
    const missingIds = [...wantedIds].filter((id) => !fresh(remembered.accounts, id, now));
    const missingNames = names.filter((name) => !fresh(remembered.mentions, name, now));
    const missingPosts = [...new Set(postIds)].filter((id) => !fresh(remembered.pins, id, now));
    if (missingIds.length + missingNames.length + missingPosts.length > 0) {
      const found = await selectPresentation(db, missingIds, missingNames, missingPosts);
      const rows = new Map(found.accounts.map((row) => [row.id, row]));
      for (const id of missingIds) keep(remembered.accounts, id, { at: now, row: rows.get(id) ?? null });
      for (const row of found.accounts) {
        if (!missingIds.includes(row.id)) keep(remembered.accounts, row.id, { at: now, row });
      }
      const people = new Map(found.mentions.map((row) => [row.username.toLowerCase(), row]));
      for (const name of missingNames) keep(remembered.mentions, name, { at: now, row: people.get(name) ?? null });
      const pinned = new Set(found.pinned);
      for (const id of missingPosts) keep(remembered.pins, id, { at: now, pinned: pinned.has(id) });
    }
    const accountRows = [...wantedIds].flatMap((id) => {
      const row = remembered.accounts.get(id)?.row;
      const target = row?.moved_to_id ? remembered.accounts.get(row.moved_to_id)?.row : undefined;
      return [...(row ? [row] : []), ...(target ? [target] : [])];
    });
    const mentions = new Map<string, MastoMention>();
    for (const name of names) {
      const row = remembered.mentions.get(name)?.row;
      if (row) {
        mentions.set(name, {
          id: row.id,
          username: row.username,
          acct: row.username,
          url: `${at}/${encodeURIComponent(row.username)}`,
        });
      }
    }
    const pinned = new Set(postIds.filter((id) => remembered.pins.get(id)?.pinned));
    return { accounts: accountsOf(accountRows, at), mentions, pinned };
  }

  /** Forgets what a write through this API changed (this process), so that its answer shows it. */
  function forget({ accounts = [], posts = [] }: { accounts?: readonly string[]; posts?: readonly string[] }): void {
    for (const id of accounts) remembered.accounts.delete(id.toLowerCase());
    for (const id of posts) remembered.pins.delete(id.toLowerCase());
  }

  /** The Accounts of these people (those that exist), with the account each moved to. */
  async function accounts(ids: readonly string[], at: string): Promise<Map<string, MastoAccount>> {
    if (ids.length === 0) return new Map();
    return (await gather(ids, [], [], at)).accounts;
  }

  /** One person's Account; 404 `Record not found` when there is none. */
  async function account(id: string, at: string): Promise<MastoAccount> {
    const found = (await accounts([id], at)).get(id.toLowerCase());
    if (!found) throw recordNotFound();
    return found;
  }

  const parse = (post: JsonText | Post): Post => (post instanceof JsonText ? (JSON.parse(post.text) as Post) : post);

  /**
   * The Statuses last made of works, by the JSON text the posts service answered (which holds everything of a work
   * a Status shows but its artist's Account, the accounts it mentions and its pin): the same text again gives the
   * same Status with those three made afresh, without parsing the work or writing its HTML again. At most MADE_MAX.
   */
  const madeStatuses = new Map<
    string,
    {
      at: string;
      signedIn: boolean;
      post: Post;
      status: MastoStatus;
      /** The Status last answered from it, with what it was made of besides the text. */
      last?: { author: MastoAccount; pinned: boolean; mentions: string; status: MastoStatus };
    }
  >();
  /** Statuses' JSON, once written (`json`): nothing changes a Status once made. */
  const texts = new WeakMap<MastoStatus, string>();

  /** A list of Statuses as JSON, each written once however many answers it goes into. */
  function json(list: readonly MastoStatus[]): string {
    const parts = list.map((status) => {
      let text = texts.get(status);
      if (text === undefined) {
        text = JSON.stringify(status);
        texts.set(status, text);
      }
      return text;
    });
    return `[${parts.join(',')}]`;
  }

  /** Works as the viewer sees them (from the posts service), as Statuses, in the same order. */
  async function statuses(
    items: readonly (JsonText | Post)[],
    viewerId: string | null,
    at: string,
  ): Promise<MastoStatus[]> {
    const signedIn = viewerId !== null;
    const made = items.map((item) => {
      if (!(item instanceof JsonText)) return undefined;
      const entry = madeStatuses.get(item.text);
      return entry && entry.at === at && entry.signedIn === signedIn ? entry : undefined;
    });
    const posts = items.map((item, i) => made[i]?.post ?? parse(item));
    if (posts.length === 0) return [];
    const {
      accounts: authors,
      mentions,
      pinned,
    } = await gather(
      posts.map((post) => post.userId),
      posts.map((post) => post.content),
      posts.map((post) => post._id),
      at,
    );
    return posts.flatMap((post, i) => {
      const author = authors.get(post.userId);
      if (!author) return [];
      const extras = {
        signedIn,
        pinned: pinned.has(post._id),
        mentions: extractMentions(post.content).flatMap((name) => mentions.get(name) ?? []),
      };
      const before = made[i];
      // The same keys in the same places: a key given again keeps its place in the object.
      if (before) {
        const mentioned = extras.mentions.length === 0 ? '' : JSON.stringify(extras.mentions);
        const last = before.last;
        if (last && last.author === author && last.pinned === extras.pinned && last.mentions === mentioned) {
          return [last.status];
        }
        const status = {
          ...before.status,
          account: author,
          mentions: extras.mentions,
          ...(signedIn ? { pinned: extras.pinned } : {}),
        };
        before.last = { author, pinned: extras.pinned, mentions: mentioned, status };
        return [status];
      }
      const status = toStatus(post, author, at, extras);
      const item = items[i];
      if (item instanceof JsonText) {
        if (madeStatuses.size >= MADE_MAX) madeStatuses.delete(madeStatuses.keys().next().value!);
        madeStatuses.set(item.text, { at, signedIn, post, status });
      }
      return [status];
    });
  }

  /** One work as a Status. */
  async function status(post: JsonText | Post, viewerId: string | null, at: string): Promise<MastoStatus> {
    const [found] = await statuses([post], viewerId, at);
    if (!found) throw recordNotFound();
    return found;
  }

  /**
   * Comments on one work as Statuses replying to it. A comment's author here is their Account; someone on another
   * server (a reply from the fediverse) an Account made from what the comment names (their handle, name, the
   * default photo; no counts).
   */
  async function commentStatuses(
    comments: readonly Comment[],
    postAuthorId: string,
    viewerId: string | null,
    at: string,
  ): Promise<MastoStatus[]> {
    if (comments.length === 0) return [];
    const { accounts: authors, mentions } = await gather(
      comments.filter((comment) => !comment.remote).map((comment) => comment.userId),
      comments.map((comment) => comment.content),
      [],
      at,
    );
    return comments.flatMap((comment) => {
      const author = comment.remote
        ? toAccount(
            {
              _id: comment.userId,
              username: comment.username,
              firstName: comment.firstName ?? comment.username,
              lastName: '',
              userPhoto: comment.userPhoto,
              remote: comment.remote,
            },
            at,
          )
        : authors.get(comment.userId);
      if (!author) return [];
      return [
        commentToStatus(comment, author, postAuthorId, at, {
          signedIn: viewerId !== null,
          mentions: extractMentions(comment.content).flatMap((name) => mentions.get(name) ?? []),
        }),
      ];
    });
  }

  return { origin, accounts, account, statuses, status, commentStatuses, forget, json };
}

export type MastodonPresenter = ReturnType<typeof createMastodonPresenter>;
