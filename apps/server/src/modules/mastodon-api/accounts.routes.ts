import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERRORS, LIMITS, type EditableUserFields } from '@share-arts/contract';
import { Type } from 'typebox';
import { HttpError } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import {
  toAccount,
  toCredentialAccount,
  toRelationship,
  type MastoAccount,
  type MastoStatus,
} from './entities/index.js';
import { mastoError, recordNotFound, validationFailed } from './errors.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { flag, paramsOf, text, type Params } from './mastodon-api.params.js';
import {
  selectFollowKey,
  selectFollowing,
  selectPostKey,
  selectRelations,
  selectUserIdByUsername,
  selectUsername,
} from './mastodon-api.sql.js';
import { cursorOf, isCursor, MastoPageQuery, newerThan, pageLimit, setLinkHeader } from './paging.js';

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const Bool = Type.Union([
  Type.Boolean(),
  Type.Literal('true'),
  Type.Literal('false'),
  Type.Literal('1'),
  Type.Literal('0'),
]);
const truthy = (value: boolean | string | undefined) => value === true || value === 'true' || value === '1';

/** A refusal our service answers for what Mastodon does silently (following someone already followed…). */
const isAlready = (error: unknown, ...messages: string[]) =>
  error instanceof HttpError && error.statusCode === 400 && messages.includes(error.message);

/**
 * Accounts (https://docs.joinmastodon.org/methods/accounts/): the signed-in account and its changes, a person by
 * id or handle, their works, their followers and follows, and the viewer's follow, block and mute of them.
 */
export async function accountsRoutes(root: FastifyInstance, deps: MastodonDeps): Promise<void> {
  const scope = root.withTypeProvider<TypeBoxTypeProvider>();
  const { users, posts, pins, safety, media, present, requireScopes, optionalScopes } = deps;
  const { db } = deps.shared;

  /** The person `id` as the viewer may see them (404 for none, or someone who blocked the viewer). */
  async function visibleAccount(id: string, viewerId: string | null, at: string): Promise<MastoAccount> {
    if (!isUuid(id)) throw recordNotFound();
    await users.getUser(id, viewerId);
    return present.account(id, at);
  }

  async function relationships(viewerId: string, ids: string[]) {
    const wanted = ids.filter(isUuid).map((id) => id.toLowerCase());
    const rows = new Map((await selectRelations(db, viewerId, wanted)).map((row) => [row.id, row]));
    return wanted.flatMap((id) => {
      const row = rows.get(id);
      // Someone who blocked the viewer: shown as no relation at all (a block cannot be probed here).
      return row
        ? [
            toRelationship(id, {
              following: row.following && !row.blocked_by,
              requested: row.requested,
              followedBy: row.followed_by && !row.blocked_by,
              blocking: row.blocking,
              blockedBy: false,
              muting: row.muting,
            }),
          ]
        : [];
    });
  }

  async function relationshipWith(viewerId: string, id: string) {
    const [relationship] = await relationships(viewerId, [id]);
    if (!relationship) throw recordNotFound();
    return relationship;
  }

  async function credentialAccount(request: FastifyRequest) {
    const me = request.userId!;
    const at = present.origin(request);
    const [user, account] = await Promise.all([users.getUser(me, me), present.account(me, at)]);
    return { ...toCredentialAccount(user, at), last_status_at: account.last_status_at };
  }

  scope.get(
    '/v1/accounts/verify_credentials',
    { preHandler: requireScopes('read', 'read:accounts', 'profile') },
    (request) => credentialAccount(request),
  );

  scope.patch(
    '/v1/accounts/update_credentials',
    { preHandler: requireScopes('write', 'write:accounts') },
    async (request) => {
      const me = request.userId!;
      const { params, files } = await paramsOf(request);
      const changes = await profileChanges(params, files, me);
      if (Object.keys(changes).length > 0) await users.editProfile(me, changes);
      present.forget({ accounts: [me] });
      return credentialAccount(request);
    },
  );

  /**
   * update_credentials' parameters as our profile's: `display_name` is the whole name (first name, no last
   * name), `note` the bio, the first of `fields_attributes` whose value is a web address the link, `avatar` a
   * new photo (uploaded as `POST /api/media` with purpose avatar does), `discoverable: false` shows the works to
   * signed-in people only (and true to everyone). `header` is refused: there are no header pictures here.
   * `locked`, `bot`, `source[privacy]`, `source[sensitive]` and `source[language]` are accepted and change nothing.
   */
  async function profileChanges(
    params: Params,
    files: { field: string; name: string | undefined; data: Buffer }[],
    me: string,
  ): Promise<EditableUserFields> {
    const changes: EditableUserFields = {};
    const displayName = text(params, 'display_name');
    if (displayName !== undefined) {
      if (displayName.length > LIMITS.nameMax) {
        throw validationFailed(`Display name is too long (maximum is ${LIMITS.nameMax} characters)`);
      }
      changes.firstName = displayName;
      changes.lastName = '';
    }
    const note = text(params, 'note');
    if (note !== undefined) {
      if (note.length > LIMITS.bioMax)
        throw validationFailed(`Note is too long (maximum is ${LIMITS.bioMax} characters)`);
      changes.bio = note;
    }
    // A list (JSON) or an object keyed by index (a form's fields_attributes[0][name]).
    const fields: unknown = params.fields_attributes;
    if (fields !== undefined && fields !== null) {
      if (typeof fields !== 'object') throw validationFailed('fields_attributes must be a list of name and value');
      const entries = (Array.isArray(fields) ? fields : Object.values(fields)) as unknown[];
      const link = entries
        .map((entry) => (entry && typeof entry === 'object' ? (entry as Params).value : undefined))
        .find((value): value is string => typeof value === 'string' && /^https?:\/\//i.test(value.trim()));
      changes.link = link?.trim() ?? '';
    }
    const discoverable = flag(params, 'discoverable');
    if (discoverable !== undefined) changes.worksSignedInOnly = !discoverable;
    flag(params, 'locked');
    flag(params, 'bot');
    if (files.some((file) => file.field === 'header')) {
      throw validationFailed('Header pictures are not supported on this server');
    }
    const avatar = files.find((file) => file.field === 'avatar');
    if (avatar) {
      const row = await media.upload({ ownerId: me, purpose: 'avatar', data: avatar.data, name: avatar.name });
      changes.userPhoto = row.id;
    }
    const other = files.find((file) => file.field !== 'avatar' && file.field !== 'header');
    if (other) throw validationFailed(`unknown file field ${other.field}`);
    return changes;
  }

  scope.get(
    '/v1/accounts/lookup',
    {
      preHandler: optionalScopes('read', 'read:accounts'),
      schema: { querystring: Type.Object({ acct: Type.String({ minLength: 1, maxLength: 320 }) }) },
    },
    async (request) => {
      const at = present.origin(request);
      const host = new URL(at).host.toLowerCase();
      let acct = request.query.acct.trim().replace(/^@/, '');
      // Our own accounts may be named with our host (`mira@share.example`).
      if (acct.toLowerCase().endsWith(`@${host}`)) acct = acct.slice(0, -(host.length + 1));
      const id = await selectUserIdByUsername(db, acct);
      if (!id) throw recordNotFound();
      return visibleAccount(id, request.userId, at);
    },
  );

  scope.get(
    '/v1/accounts/relationships',
    {
      preHandler: requireScopes('read', 'read:follows'),
      schema: {
        querystring: Type.Object({
          id: Type.Optional(
            Type.Union([
              Type.String({ maxLength: 100 }),
              Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }),
            ]),
          ),
          'id[]': Type.Optional(
            Type.Union([
              Type.String({ maxLength: 100 }),
              Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }),
            ]),
          ),
          with_suspended: Type.Optional(Bool),
        }),
      },
    },
    async (request) => {
      const raw = request.query.id ?? request.query['id[]'] ?? [];
      return relationships(request.userId!, Array.isArray(raw) ? raw : [raw]);
    },
  );

  scope.get(
    '/v1/accounts/:id',
    { preHandler: optionalScopes('read', 'read:accounts'), schema: { params: IdParams } },
    async (request) => visibleAccount(request.params.id, request.userId, present.origin(request)),
  );

  scope.get(
    '/v1/accounts/:id/statuses',
    {
      preHandler: optionalScopes('read', 'read:statuses'),
      schema: {
        params: IdParams,
        querystring: Type.Object({
          ...MastoPageQuery.properties,
          only_media: Type.Optional(Bool),
          exclude_replies: Type.Optional(Bool),
          exclude_reblogs: Type.Optional(Bool),
          pinned: Type.Optional(Bool),
          tagged: Type.Optional(Type.String({ maxLength: 100 })),
        }),
      },
    },
    async (request, reply) => {
      const viewerId = request.userId;
      const at = present.origin(request);
      const { id } = request.params;
      if (!isUuid(id)) throw recordNotFound();
      await users.getUser(id, viewerId);
      const username = await selectUsername(db, id);
      if (!username) throw recordNotFound();
      const query = request.query;
      const limit = pageLimit(query);
      // Featured: the artist's pins, in their order (at most 6: one page).
      if (truthy(query.pinned)) {
        if (query.max_id || query.since_id || query.min_id) return [];
        const pinned = await pins.pinned(username, viewerId);
        return present.statuses(pinned.posts, viewerId, at);
      }
      const onlyMedia = truthy(query.only_media);
      const tagged = query.tagged?.replace(/^#/, '').toLowerCase();
      const read = async (cursor: string | undefined) => {
        const page = await posts.byUsername(username, { limit, cursor, sort: 'latest' }, viewerId);
        let items = await present.statuses(page.posts, viewerId, at);
        // Every work has pictures but one showing the default picture (no media_attachments).
        if (onlyMedia) items = items.filter((status) => status.media_attachments.length > 0);
        if (tagged) items = items.filter((status) => status.tags.some((tag) => tag.name === tagged));
        return { items, nextCursor: page.nextCursor };
      };
      const newer = query.min_id ?? query.since_id;
      if (newer) {
        const items = await newerThan(newer, query.min_id ? 'min' : 'since', limit, (s: MastoStatus) => s.id, read);
        setLinkHeader(reply, request, at, { next: items.at(-1)?.id, prev: items[0]?.id });
        return items;
      }
      const page = await read(await postCursor(query.max_id));
      setLinkHeader(reply, request, at, {
        next: page.nextCursor ? (page.items.at(-1)?.id ?? page.nextCursor) : null,
        prev: page.items[0]?.id,
      });
      return page.items;
    },
  );

  /** A `max_id` as our cursor: a work's id (its place in newest-first lists), or a cursor of ours. */
  async function postCursor(maxId: string | undefined): Promise<string | undefined> {
    if (!maxId) return undefined;
    if (isCursor(maxId)) return maxId;
    const key = isUuid(maxId) ? await selectPostKey(db, maxId) : undefined;
    if (!key) throw recordNotFound();
    return cursorOf(key);
  }

  scope.get(
    '/v1/accounts/:id/followers',
    {
      preHandler: optionalScopes('read', 'read:accounts'),
      schema: { params: IdParams, querystring: MastoPageQuery },
    },
    async (request, reply) => {
      const at = present.origin(request);
      const { id } = request.params;
      if (!isUuid(id)) throw recordNotFound();
      const limit = pageLimit(request.query);
      // Our followers list pages by its own cursor (followers here and on other servers in one order): the Link
      // header carries it as max_id.
      const cursor = request.query.max_id && isCursor(request.query.max_id) ? request.query.max_id : undefined;
      if (request.query.max_id && !cursor) throw validationFailed('max_id must be the one in the Link header');
      if (request.query.min_id || request.query.since_id) return [];
      const page = await users.followers(id, { limit, cursor }, request.userId);
      const here = await present.accounts(
        page.followers.filter((person) => !person.remote).map((person) => person._id),
        at,
      );
      const accounts = page.followers.flatMap((person) => {
        if (!person.remote) return here.get(person._id) ?? [];
        // Someone on another server who follows from there (no account here): named as their follow names them.
        return [toAccount(person, at)];
      });
      setLinkHeader(reply, request, at, { next: page.nextCursor });
      return accounts;
    },
  );

  scope.get(
    '/v1/accounts/:id/following',
    {
      preHandler: optionalScopes('read', 'read:accounts'),
      schema: { params: IdParams, querystring: MastoPageQuery },
    },
    async (request, reply) => {
      const at = present.origin(request);
      const { id } = request.params;
      const viewerId = request.userId;
      if (!isUuid(id)) throw recordNotFound();
      await users.getUser(id, viewerId);
      if (request.query.min_id || request.query.since_id) return [];
      const limit = pageLimit(request.query);
      const maxId = request.query.max_id;
      const before = maxId ? (isUuid(maxId) ? await selectFollowKey(db, id, maxId) : undefined) : undefined;
      if (maxId && !before) throw recordNotFound();
      const rows = await selectFollowing(db, id, viewerId, limit, before);
      const shown = rows.slice(0, limit);
      const accounts = await present.accounts(
        shown.map((row) => row.id),
        at,
      );
      const list = shown.flatMap((row) => accounts.get(row.id) ?? []);
      setLinkHeader(reply, request, at, { next: rows.length > limit ? shown.at(-1)?.id : null });
      return list;
    },
  );

  for (const [action, follow] of [
    ['follow', true],
    ['unfollow', false],
  ] as const) {
    scope.post(
      `/v1/accounts/:id/${action}`,
      { preHandler: requireScopes('write', 'write:follows', 'follow'), schema: { params: IdParams } },
      async (request) => {
        const me = request.userId!;
        const { id } = request.params;
        if (!isUuid(id)) throw recordNotFound();
        if (id.toLowerCase() === me) throw mastoError(403, 'This action is not allowed');
        try {
          await (follow ? users.follow(me, id) : users.unfollow(me, id));
        } catch (error) {
          // Mastodon's follow and unfollow are idempotent: following someone followed answers the relationship.
          if (!isAlready(error, ERRORS.alreadyFollowing, ERRORS.notFollowing)) throw error;
        }
        present.forget({ accounts: [me, id] });
        return relationshipWith(me, id);
      },
    );
  }

  for (const [action, scopes] of [
    ['block', ['write', 'write:blocks', 'follow']],
    ['unblock', ['write', 'write:blocks', 'follow']],
    ['mute', ['write', 'write:mutes', 'follow']],
    ['unmute', ['write', 'write:mutes', 'follow']],
  ] as const) {
    scope.post(
      `/v1/accounts/:id/${action}`,
      { preHandler: requireScopes(...scopes), schema: { params: IdParams } },
      async (request) => {
        const me = request.userId!;
        const { id } = request.params;
        const username = isUuid(id) ? await selectUsername(db, id) : undefined;
        if (!username) throw recordNotFound();
        if (id.toLowerCase() === me) throw mastoError(403, 'This action is not allowed');
        // Mute's `notifications` and `duration` are accepted: a mute here hides notifications too, and lasts.
        await safety[action](me, username);
        // A block ends follows both ways: both accounts' counts change.
        present.forget({ accounts: [me, id] });
        return relationshipWith(me, id);
      },
    );
  }

  // Featured hashtags: none here (an artist's pins are their featured works: ?pinned=true).
  scope.get(
    '/v1/accounts/:id/featured_tags',
    { preHandler: optionalScopes('read', 'read:accounts'), schema: { params: IdParams } },
    async (request) => {
      if (!isUuid(request.params.id)) throw recordNotFound();
      await users.getUser(request.params.id, request.userId);
      return [];
    },
  );
}
