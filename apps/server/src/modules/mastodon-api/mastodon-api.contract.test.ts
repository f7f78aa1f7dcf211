import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, uploadPicture, type SignedUp, type TestContext } from '../../test/helpers.js';

/**
 * Our JSON against Mastodon's documented entities, field by field (https://docs.joinmastodon.org/entities/:
 * Account, Status, MediaAttachment, Relationship, Context, Error), as of Mastodon 4.5. Each list is the entity's
 * attributes with their JSON types; `?` marks one Mastodon sends only sometimes (optional in the docs). Every
 * documented, always-present attribute must be there with its type, and nothing undocumented may be.
 */
type Types = Record<string, string>;

const ACCOUNT: Types = {
  id: 'string',
  username: 'string',
  acct: 'string',
  url: 'string',
  uri: 'string',
  display_name: 'string',
  note: 'string',
  avatar: 'string',
  avatar_static: 'string',
  header: 'string',
  header_static: 'string',
  locked: 'boolean',
  fields: 'array',
  emojis: 'array',
  bot: 'boolean',
  group: 'boolean',
  discoverable: 'boolean|null',
  indexable: 'boolean',
  noindex: 'boolean|null',
  hide_collections: 'boolean|null',
  'moved?': 'object|null',
  'suspended?': 'boolean',
  'limited?': 'boolean',
  'memorial?': 'boolean',
  roles: 'array',
  created_at: 'string',
  last_status_at: 'string|null',
  statuses_count: 'number',
  followers_count: 'number',
  following_count: 'number',
};

/** CredentialAccount: an Account with `source` and `role`. */
const CREDENTIAL_ACCOUNT: Types = { ...ACCOUNT, source: 'object', role: 'object' };
const SOURCE: Types = {
  note: 'string',
  fields: 'array',
  privacy: 'string',
  sensitive: 'boolean',
  language: 'string|null',
  follow_requests_count: 'number',
  hide_collections: 'boolean|null',
  discoverable: 'boolean|null',
  indexable: 'boolean',
  attribution_domains: 'array',
  quote_policy: 'string',
};

const STATUS: Types = {
  id: 'string',
  uri: 'string',
  created_at: 'string',
  account: 'object',
  content: 'string',
  visibility: 'string',
  sensitive: 'boolean',
  spoiler_text: 'string',
  media_attachments: 'array',
  application: 'object|null',
  mentions: 'array',
  tags: 'array',
  emojis: 'array',
  reblogs_count: 'number',
  favourites_count: 'number',
  replies_count: 'number',
  quotes_count: 'number',
  quote_approval: 'object',
  'quote?': 'object|null',
  url: 'string|null',
  in_reply_to_id: 'string|null',
  in_reply_to_account_id: 'string|null',
  reblog: 'object|null',
  poll: 'object|null',
  card: 'object|null',
  language: 'string|null',
  'text?': 'string|null',
  edited_at: 'string|null',
  // Only with a signed-in viewer.
  'favourited?': 'boolean',
  'reblogged?': 'boolean',
  'muted?': 'boolean',
  'bookmarked?': 'boolean',
  'pinned?': 'boolean',
  'filtered?': 'array',
};

const MEDIA_ATTACHMENT: Types = {
  id: 'string',
  type: 'string',
  url: 'string|null',
  preview_url: 'string|null',
  remote_url: 'string|null',
  // Deprecated since Mastodon 3.5, still sent by it.
  'text_url?': 'string|null',
  meta: 'object|null',
  description: 'string|null',
  blurhash: 'string|null',
};

const RELATIONSHIP: Types = {
  id: 'string',
  following: 'boolean',
  showing_reblogs: 'boolean',
  notifying: 'boolean',
  languages: 'array|null',
  followed_by: 'boolean',
  blocking: 'boolean',
  blocked_by: 'boolean',
  muting: 'boolean',
  muting_notifications: 'boolean',
  requested: 'boolean',
  requested_by: 'boolean',
  domain_blocking: 'boolean',
  endorsed: 'boolean',
  note: 'string',
};

const MENTION: Types = { id: 'string', username: 'string', url: 'string', acct: 'string' };
const STATUS_TAG: Types = { name: 'string', url: 'string' };
const FIELD: Types = { name: 'string', value: 'string', verified_at: 'string|null' };

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** The differences between `json` and the documented attributes: missing, mistyped, undocumented. */
function contractErrors(json: Record<string, unknown>, types: Types, name: string): string[] {
  const errors: string[] = [];
  const documented = new Set<string>();
  for (const [key, type] of Object.entries(types)) {
    const optional = key.endsWith('?');
    const field = optional ? key.slice(0, -1) : key;
    documented.add(field);
    if (!(field in json)) {
      if (!optional) errors.push(`${name}.${field} is missing`);
      continue;
    }
    if (!type.split('|').includes(typeOf(json[field]))) {
      errors.push(`${name}.${field} is ${typeOf(json[field])}, documented as ${type}`);
    }
  }
  for (const key of Object.keys(json)) if (!documented.has(key)) errors.push(`${name}.${key} is not documented`);
  return errors;
}

let ctx: TestContext;
let ana: SignedUp;
let ben: SignedUp;
let postId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  ana = await signUp(ctx.app);
  ben = await signUp(ctx.app);
  const picture = await uploadPicture(ctx.app, ana, 'a gull');
  await ctx.app.inject({
    method: 'PATCH',
    url: '/api/v1/accounts/update_credentials',
    headers: { authorization: `Bearer ${ana.token}` },
    payload: { fields_attributes: [{ name: 'Site', value: 'https://ana.example' }] },
  });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/statuses',
    headers: { authorization: `Bearer ${ana.token}` },
    payload: { status: `A gull #sea for @${ben.user.username}`, media_ids: [picture._id] },
  });
  postId = created.json().id;
});
afterAll(() => ctx.close());

const get = (url: string, who?: SignedUp) =>
  ctx.app.inject({ method: 'GET', url, headers: who ? { authorization: `Bearer ${who.token}` } : {} });

describe('Mastodon entities, field by field', () => {
  it('Account and CredentialAccount (with Source and fields)', async () => {
    const account = (await get(`/api/v1/accounts/${ana.user._id}`)).json();
    expect(contractErrors(account, ACCOUNT, 'Account')).toEqual([]);
    expect(account.fields).toHaveLength(1);
    expect(contractErrors(account.fields[0], FIELD, 'Field')).toEqual([]);
    const credential = (await get('/api/v1/accounts/verify_credentials', ana)).json();
    expect(contractErrors(credential, CREDENTIAL_ACCOUNT, 'CredentialAccount')).toEqual([]);
    expect(contractErrors(credential.source, SOURCE, 'Source')).toEqual([]);
    expect(new Date(account.created_at).toISOString()).toBe(account.created_at);
  });

  it('Status signed out and signed in, with its MediaAttachment, Mention and Tag', async () => {
    const signedOut = (await get(`/api/v1/statuses/${postId}`)).json();
    expect(contractErrors(signedOut, STATUS, 'Status')).toEqual([]);
    expect(signedOut).not.toHaveProperty('favourited');
    const status = (await get(`/api/v1/statuses/${postId}`, ben)).json();
    expect(contractErrors(status, STATUS, 'Status')).toEqual([]);
    for (const flag of ['favourited', 'reblogged', 'muted', 'bookmarked', 'pinned'])
      expect(status).toHaveProperty(flag);
    expect(contractErrors(status.account, ACCOUNT, 'Status.account')).toEqual([]);
    expect(status.media_attachments).toHaveLength(1);
    expect(contractErrors(status.media_attachments[0], MEDIA_ATTACHMENT, 'MediaAttachment')).toEqual([]);
    const meta = status.media_attachments[0].meta;
    for (const size of [meta.original, meta.small]) {
      expect(size).toEqual({
        width: expect.any(Number),
        height: expect.any(Number),
        size: `${size.width}x${size.height}`,
        aspect: size.width / size.height,
      });
    }
    expect(meta.focus).toEqual({ x: 0, y: 0 });
    expect(contractErrors(status.mentions[0], MENTION, 'Mention')).toEqual([]);
    expect(contractErrors(status.tags[0], STATUS_TAG, 'Status.tags')).toEqual([]);
    expect(['public', 'unlisted', 'private', 'direct']).toContain(status.visibility);
  });

  it('a comment as a Status, and Context', async () => {
    const reply = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/statuses',
      headers: { authorization: `Bearer ${ben.token}` },
      payload: { status: 'Nice', in_reply_to_id: postId },
    });
    expect(contractErrors(reply.json(), STATUS, 'Status (comment)')).toEqual([]);
    const context = (await get(`/api/v1/statuses/${postId}/context`)).json();
    expect(Object.keys(context).sort()).toEqual(['ancestors', 'descendants']);
    expect(contractErrors(context.descendants[0], STATUS, 'Context.descendants[0]')).toEqual([]);
  });

  it('Relationship', async () => {
    const relationships = (await get(`/api/v1/accounts/relationships?id[]=${ana.user._id}`, ben)).json();
    expect(relationships).toHaveLength(1);
    expect(contractErrors(relationships[0], RELATIONSHIP, 'Relationship')).toEqual([]);
  });

  it('refusals have Mastodon’s Error shape and codes', async () => {
    const cases = [
      { response: await get('/api/v1/accounts/verify_credentials'), status: 401 },
      { response: await get('/api/v1/statuses/not-an-id'), status: 404 },
      {
        response: await ctx.app.inject({
          method: 'PUT',
          url: `/api/v1/statuses/${postId}`,
          headers: { authorization: `Bearer ${ben.token}` },
          payload: { status: 'not mine' },
        }),
        status: 403,
      },
      {
        response: await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/statuses',
          headers: { authorization: `Bearer ${ben.token}` },
          payload: { status: 'x', media_ids: 'not a list of ids at all but a string that is long' },
        }),
        status: 404,
      },
      { response: await get('/api/v1/timelines/home?limit=-1', ben), status: 422 },
    ];
    for (const { response, status } of cases) {
      expect(response.statusCode, response.body).toBe(status);
      expect(Object.keys(response.json())).toEqual(['error']);
      expect(typeof response.json().error).toBe('string');
    }
  });
});
