import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  createPost,
  createTestApp,
  multipart,
  signUp,
  uploadPicture,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';

/**
 * The Mastodon client API's core (issue 45): accounts, statuses, timelines, media, favourites and bookmarks,
 * through the web app's own token (which counts as every scope), against the real database.
 */
let ctx: TestContext;
let ana: SignedUp;
let ben: SignedUp;

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });

async function api(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, who?: SignedUp, payload?: object) {
  return ctx.app.inject({ method, url, headers: who ? auth(who) : {}, ...(payload ? { payload } : {}) });
}

beforeAll(async () => {
  ctx = await createTestApp();
  ana = await signUp(ctx.app, { fullname: 'Ana Rivera' });
  ben = await signUp(ctx.app, { fullname: 'Ben Okafor' });
});
afterAll(() => ctx.close());

describe('accounts', () => {
  it('verify_credentials answers the signed-in account with its source', async () => {
    const response = await api('GET', '/api/v1/accounts/verify_credentials', ana);
    expect(response.statusCode).toBe(200);
    const account = response.json();
    expect(account).toMatchObject({
      id: ana.user._id,
      username: ana.user.username,
      acct: ana.user.username,
      display_name: 'Ana Rivera',
      locked: false,
      bot: false,
      emojis: [],
      statuses_count: 0,
      source: { privacy: 'public', note: '' },
    });
    expect(new URL(account.url).pathname).toBe(`/${ana.user.username}`);
    // The AI-training opt-out is on by default: noindex.
    expect(account.noindex).toBe(true);
  });

  it('refuses no token with 401 in Mastodon words', async () => {
    const response = await api('GET', '/api/v1/accounts/verify_credentials');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'The access token is invalid' });
  });

  it('answers 404 Record not found for an unknown account, and for an unknown route under /api/v1', async () => {
    const unknown = await api('GET', '/api/v1/accounts/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Record not found' });
    const route = await api('GET', '/api/v1/nothing-here');
    expect(route.statusCode).toBe(404);
    expect(route.json()).toEqual({ error: 'Record not found' });
    // The rest of the site keeps its own errors.
    const site = await api('GET', '/api/nothing-here');
    expect(site.json()).toHaveProperty('errors');
  });

  it('lookup finds an account by acct, with or without our host', async () => {
    const plain = await api('GET', `/api/v1/accounts/lookup?acct=${ana.user.username}`);
    expect(plain.statusCode).toBe(200);
    expect(plain.json().id).toBe(ana.user._id);
    const withHost = await api('GET', `/api/v1/accounts/lookup?acct=@${ana.user.username}@localhost`);
    expect(withHost.json().id).toBe(ana.user._id);
    const missing = await api('GET', '/api/v1/accounts/lookup?acct=nobody_here_at_all');
    expect(missing.statusCode).toBe(404);
  });

  it('update_credentials changes the name, the note and the link field (form-encoded as Rails reads it)', async () => {
    const response = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/v1/accounts/update_credentials',
      headers: { ...auth(ana), 'content-type': 'application/x-www-form-urlencoded' },
      payload:
        'display_name=Ana%20R.&note=Paints%20%23birds%20%3Cb%3E&fields_attributes[0][name]=Site&fields_attributes[0][value]=https%3A%2F%2Fana.example',
    });
    expect(response.statusCode).toBe(200);
    const account = response.json();
    expect(account.display_name).toBe('Ana R.');
    expect(account.source.note).toBe('Paints #birds <b>');
    // The note is HTML with every character escaped and the tag a link.
    expect(account.note).toContain('&lt;b&gt;');
    expect(account.note).toContain('class="mention hashtag"');
    expect(account.fields[0].value).toContain('href="https://ana.example/"');
  });

  it('update_credentials takes an avatar as multipart and refuses a header picture', async () => {
    const png = await sharp({ create: { width: 200, height: 200, channels: 3, background: { r: 9, g: 9, b: 9 } } })
      .png()
      .toBuffer();
    const avatar = multipart([{ name: 'avatar', data: png, filename: 'a.png', contentType: 'image/png' }]);
    const ok = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/v1/accounts/update_credentials',
      headers: { ...auth(ben), 'content-type': avatar.contentType },
      payload: avatar.payload,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().avatar).toMatch(/\/media\//);
    const header = multipart([{ name: 'header', data: png, filename: 'h.png', contentType: 'image/png' }]);
    const refused = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/v1/accounts/update_credentials',
      headers: { ...auth(ben), 'content-type': header.contentType },
      payload: header.payload,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toMatch(/^Validation failed: Header/);
  });

  it('follow, relationships, followers, following and unfollow (idempotent as Mastodon)', async () => {
    const follow = await api('POST', `/api/v1/accounts/${ana.user._id}/follow`, ben);
    expect(follow.statusCode).toBe(200);
    expect(follow.json()).toMatchObject({ id: ana.user._id, following: true, followed_by: false });
    const again = await api('POST', `/api/v1/accounts/${ana.user._id}/follow`, ben);
    expect(again.statusCode).toBe(200);
    const relationships = await api(
      'GET',
      `/api/v1/accounts/relationships?id[]=${ana.user._id}&id[]=${ben.user._id}`,
      ana,
    );
    expect(relationships.json()).toEqual([
      expect.objectContaining({ id: ana.user._id, following: false, followed_by: false }),
      expect.objectContaining({ id: ben.user._id, following: false, followed_by: true }),
    ]);
    const followers = await api('GET', `/api/v1/accounts/${ana.user._id}/followers`);
    expect(followers.json().map((account: { id: string }) => account.id)).toEqual([ben.user._id]);
    const following = await api('GET', `/api/v1/accounts/${ben.user._id}/following`);
    expect(following.json().map((account: { id: string }) => account.id)).toEqual([ana.user._id]);
    const self = await api('POST', `/api/v1/accounts/${ben.user._id}/follow`, ben);
    expect(self.statusCode).toBe(403);
  });

  it('mute and block answer the relationship; a block hides the blocker from the blocked', async () => {
    const carla = await signUp(ctx.app);
    const mute = await api('POST', `/api/v1/accounts/${carla.user._id}/mute`, ana);
    expect(mute.json()).toMatchObject({ muting: true, muting_notifications: true });
    const unmute = await api('POST', `/api/v1/accounts/${carla.user._id}/unmute`, ana);
    expect(unmute.json().muting).toBe(false);
    const block = await api('POST', `/api/v1/accounts/${ana.user._id}/block`, carla);
    expect(block.json()).toMatchObject({ blocking: true });
    const hidden = await api('GET', `/api/v1/accounts/${carla.user._id}`, ana);
    expect(hidden.statusCode).toBe(404);
    await api('POST', `/api/v1/accounts/${ana.user._id}/unblock`, carla);
    expect((await api('GET', `/api/v1/accounts/${carla.user._id}`, ana)).statusCode).toBe(200);
  });
});

describe('statuses', () => {
  let postId: string;

  it('creates a work with pictures, a warning and text escaped as HTML', async () => {
    const pictures = [await uploadPicture(ctx.app, ana, 'a fox'), await uploadPicture(ctx.app, ana, 'a hen')];
    const response = await api('POST', '/api/v1/statuses', ana, {
      status: 'Two birds <script> #ink @' + ben.user.username,
      media_ids: pictures.map((picture) => picture._id),
      spoiler_text: 'blood',
      visibility: 'public',
      language: 'en',
    });
    expect(response.statusCode).toBe(200);
    const status = response.json();
    postId = status.id;
    expect(status).toMatchObject({
      visibility: 'public',
      sensitive: true,
      spoiler_text: 'blood',
      in_reply_to_id: null,
      reblog: null,
      favourites_count: 0,
      replies_count: 0,
      favourited: false,
      bookmarked: false,
      account: { id: ana.user._id },
    });
    expect(status.content).toContain('&lt;script&gt;');
    expect(status.content).not.toContain('<script>');
    expect(status.tags).toEqual([{ name: 'ink', url: expect.stringMatching(/\/tags\/ink$/) }]);
    expect(status.mentions).toEqual([expect.objectContaining({ id: ben.user._id, acct: ben.user.username })]);
    expect(status.media_attachments.map((m: { description: string }) => m.description)).toEqual(['a fox', 'a hen']);
    expect(status.media_attachments[0].meta.original).toEqual({
      width: 1600,
      height: 1200,
      size: '1600x1200',
      aspect: 1600 / 1200,
    });
    expect(status.media_attachments[0].meta.small.width).toBe(640);
  });

  it('refuses private and direct visibility, polls and too long text with 422', async () => {
    for (const payload of [
      { status: 'x', visibility: 'direct' },
      { status: 'x', visibility: 'private' },
      { status: 'x', poll: { options: ['a', 'b'], expires_in: 600 } },
      { status: 'x'.repeat(2001) },
      { status: 'x', visibility: 'everyone' },
    ]) {
      const response = await api('POST', '/api/v1/statuses', ana, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json().error).toMatch(/^Validation failed: /);
    }
  });

  it('an Idempotency-Key makes a retried create answer the same status', async () => {
    const send = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/statuses',
        headers: { ...auth(ben), 'idempotency-key': 'key-1' },
        payload: { status: 'only once' },
      });
    const first = await send();
    const second = await send();
    expect(second.json().id).toBe(first.json().id);
    const mine = await api('GET', `/api/v1/accounts/${ben.user._id}/statuses`);
    expect(mine.json().filter((status: { content: string }) => status.content.includes('only once'))).toHaveLength(1);
  });

  it('favourite, bookmark and pin, and their undoing, idempotent', async () => {
    expect((await api('POST', `/api/v1/statuses/${postId}/favourite`, ben)).json()).toMatchObject({
      favourited: true,
      favourites_count: 1,
    });
    expect((await api('POST', `/api/v1/statuses/${postId}/favourite`, ben)).json()).toMatchObject({
      favourited: true,
      favourites_count: 1,
    });
    expect((await api('GET', '/api/v1/favourites', ben)).json().map((s: { id: string }) => s.id)).toEqual([postId]);
    const likers = await api('GET', `/api/v1/statuses/${postId}/favourited_by`);
    expect(likers.json().map((a: { id: string }) => a.id)).toEqual([ben.user._id]);
    expect((await api('POST', `/api/v1/statuses/${postId}/unfavourite`, ben)).json()).toMatchObject({
      favourited: false,
      favourites_count: 0,
    });
    expect((await api('POST', `/api/v1/statuses/${postId}/unfavourite`, ben)).statusCode).toBe(200);

    expect((await api('POST', `/api/v1/statuses/${postId}/bookmark`, ben)).json().bookmarked).toBe(true);
    expect((await api('GET', '/api/v1/bookmarks', ben)).json().map((s: { id: string }) => s.id)).toEqual([postId]);
    expect((await api('POST', `/api/v1/statuses/${postId}/unbookmark`, ben)).json().bookmarked).toBe(false);

    expect((await api('POST', `/api/v1/statuses/${postId}/pin`, ana)).json().pinned).toBe(true);
    const featured = await api('GET', `/api/v1/accounts/${ana.user._id}/statuses?pinned=true`, ana);
    expect(featured.json().map((s: { id: string }) => s.id)).toEqual([postId]);
    expect((await api('POST', `/api/v1/statuses/${postId}/pin`, ben)).statusCode).toBe(422);
    expect((await api('POST', `/api/v1/statuses/${postId}/unpin`, ana)).json().pinned).toBe(false);
  });

  it('a reblog is refused as Mastodon refuses one that cannot be; unreblog answers the status', async () => {
    const reblog = await api('POST', `/api/v1/statuses/${postId}/reblog`, ben);
    expect(reblog.statusCode).toBe(422);
    expect((await api('POST', `/api/v1/statuses/${postId}/unreblog`, ben)).json().reblogged).toBe(false);
    expect((await api('GET', `/api/v1/statuses/${postId}/reblogged_by`)).json()).toEqual([]);
  });

  it('a reply is a comment on the work; context lists comments as descendants', async () => {
    const reply = await api('POST', '/api/v1/statuses', ben, { status: 'Lovely!', in_reply_to_id: postId });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({
      in_reply_to_id: postId,
      in_reply_to_account_id: ana.user._id,
      account: { id: ben.user._id },
    });
    const commentId = reply.json().id;
    // Replying to the comment comments on the same work.
    const second = await api('POST', '/api/v1/statuses', ana, { status: 'Thank you', in_reply_to_id: commentId });
    expect(second.json().in_reply_to_id).toBe(postId);
    const context = await api('GET', `/api/v1/statuses/${postId}/context`);
    expect(context.json().ancestors).toEqual([]);
    expect(context.json().descendants.map((s: { id: string }) => s.id)).toEqual([commentId, second.json().id]);
    const ofComment = await api('GET', `/api/v1/statuses/${commentId}/context`);
    expect(ofComment.json().ancestors.map((s: { id: string }) => s.id)).toEqual([postId]);
    expect((await api('GET', `/api/v1/statuses/${postId}`)).json().replies_count).toBe(2);
    // A comment is a status of its own: read, edited and deleted by its author.
    expect((await api('GET', `/api/v1/statuses/${commentId}`)).json().content).toBe('<p>Lovely!</p>');
    expect((await api('PUT', `/api/v1/statuses/${commentId}`, ana, { status: 'mine now' })).statusCode).toBe(403);
    const edited = await api('PUT', `/api/v1/statuses/${commentId}`, ben, { status: 'Lovely, really' });
    expect(edited.json().edited_at).not.toBeNull();
    expect((await api('DELETE', `/api/v1/statuses/${second.json().id}`, ana)).json().text).toBe('Thank you');
  });

  it('edits a work (text, warning, alt texts) with its history and source', async () => {
    const before = (await api('GET', `/api/v1/statuses/${postId}`)).json();
    const mediaId = before.media_attachments[0].id;
    const response = await api('PUT', `/api/v1/statuses/${postId}`, ana, {
      status: 'Two birds, finished',
      spoiler_text: '',
      sensitive: false,
      media_ids: before.media_attachments.map((m: { id: string }) => m.id),
      media_attributes: [{ id: mediaId, description: 'a red fox' }],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ sensitive: false, spoiler_text: '', edited_at: expect.any(String) });
    expect(response.json().media_attachments[0].description).toBe('a red fox');
    const history = await api('GET', `/api/v1/statuses/${postId}/history`);
    const versions = history.json();
    // The original first, today's last (an alt text's change may be a revision of its own).
    expect(versions.length).toBeGreaterThanOrEqual(2);
    expect(versions[0]).toMatchObject({ spoiler_text: 'blood', sensitive: true });
    expect(versions[0].content).toContain('Two birds');
    expect(versions.at(-1).content).toBe('<p>Two birds, finished</p>');
    const source = await api('GET', `/api/v1/statuses/${postId}/source`, ana);
    expect(source.json()).toEqual({ id: postId, text: 'Two birds, finished', spoiler_text: '' });
    expect((await api('PUT', `/api/v1/statuses/${postId}`, ben, { status: 'not mine' })).statusCode).toBe(403);
  });

  it('deletes a work, answering it with its text for redrafting', async () => {
    const id = await createPost(ctx.app, ana, 'to delete');
    expect((await api('DELETE', `/api/v1/statuses/${id}`, ben)).statusCode).toBe(403);
    const response = await api('DELETE', `/api/v1/statuses/${id}`, ana);
    expect(response.statusCode).toBe(200);
    expect(response.json().text).toBe('to delete');
    expect((await api('GET', `/api/v1/statuses/${id}`)).statusCode).toBe(404);
  });
});

describe('timelines and paging', () => {
  it('home holds the works of the people followed, paged by max_id and the Link header', async () => {
    const dee = await signUp(ctx.app);
    const eve = await signUp(ctx.app);
    await api('POST', `/api/v1/accounts/${eve.user._id}/follow`, dee);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await createPost(ctx.app, eve, `work ${i}`));
    const newestFirst = [...ids].reverse();
    const first = await api('GET', '/api/v1/timelines/home?limit=2', dee);
    expect(first.statusCode).toBe(200);
    expect(first.json().map((s: { id: string }) => s.id)).toEqual(newestFirst.slice(0, 2));
    const link = String(first.headers.link);
    expect(link).toContain(`max_id=${newestFirst[1]}`);
    expect(link).toContain('rel="next"');
    expect(link).toContain(`min_id=${newestFirst[0]}`);
    const next = await api('GET', `/api/v1/timelines/home?limit=2&max_id=${newestFirst[1]}`, dee);
    expect(next.json().map((s: { id: string }) => s.id)).toEqual(newestFirst.slice(2, 4));
    const since = await api('GET', `/api/v1/timelines/home?since_id=${newestFirst[3]}`, dee);
    expect(since.json().map((s: { id: string }) => s.id)).toEqual(newestFirst.slice(0, 3));
    const min = await api('GET', `/api/v1/timelines/home?min_id=${newestFirst[3]}&limit=2`, dee);
    expect(min.json().map((s: { id: string }) => s.id)).toEqual(newestFirst.slice(1, 3));
    const unknown = await api('GET', '/api/v1/timelines/home?max_id=00000000-0000-4000-8000-000000000000', dee);
    expect(unknown.statusCode).toBe(404);
  });

  it('home read again answers the same, and what changed since: a like, a pin, the artist’s new name', async () => {
    const fay = await signUp(ctx.app);
    const gil = await signUp(ctx.app);
    await api('POST', `/api/v1/accounts/${gil.user._id}/follow`, fay);
    const id = await createPost(ctx.app, gil, 'harbour at dawn #ink');
    const first = await api('GET', '/api/v1/timelines/home', fay);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const again = await api('GET', '/api/v1/timelines/home', fay);
    expect(again.body).toBe(first.body);
    const before = first.json()[0];
    expect(before).toMatchObject({
      id,
      favourited: false,
      favourites_count: 0,
      pinned: false,
      tags: [{ name: 'ink' }],
    });
    await api('POST', `/api/v1/statuses/${id}/favourite`, fay);
    await api('POST', `/api/v1/statuses/${id}/pin`, gil);
    await api('PATCH', '/api/v1/accounts/update_credentials', gil, { display_name: 'Gil Renamed' });
    const after = (await api('GET', '/api/v1/timelines/home', fay)).json()[0];
    expect(after).toMatchObject({
      id,
      favourited: true,
      favourites_count: 1,
      pinned: true,
      account: { id: gil.user._id, display_name: 'Gil Renamed' },
    });
    // Nothing else changed.
    const rest = (status: Record<string, unknown>) => ({
      ...status,
      favourited: null,
      favourites_count: null,
      pinned: null,
      account: null,
    });
    expect(rest(after)).toEqual(rest(before));
  });

  it('public and tag timelines; a bad limit is a 422', async () => {
    const id = await createPost(ctx.app, ana, 'a #heron study');
    const publicLine = await api('GET', '/api/v1/timelines/public?local=true&limit=40');
    expect(publicLine.json().map((s: { id: string }) => s.id)).toContain(id);
    const tag = await api('GET', '/api/v1/timelines/tag/heron');
    expect(tag.json().map((s: { id: string }) => s.id)).toEqual([id]);
    // Signed out, the viewer's flags are absent, as on Mastodon.
    expect(tag.json()[0]).not.toHaveProperty('favourited');
    const bad = await api('GET', '/api/v1/timelines/public?limit=zero');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toMatch(/^Validation failed: /);
  });
});

describe('media', () => {
  it('v2 uploads a picture with its description, v1 reads and updates it', async () => {
    const data = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 1, g: 2, b: 3 } } })
      .jpeg()
      .toBuffer();
    const form = multipart([
      { name: 'description', data: 'a study' },
      { name: 'focus', data: '0.5,-0.2' },
      { name: 'file', data, filename: 'w.jpg', contentType: 'image/jpeg' },
    ]);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v2/media',
      headers: { ...auth(ana), 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(200);
    const attachment = response.json();
    expect(attachment).toMatchObject({
      type: 'image',
      description: 'a study',
      meta: { original: { width: 800, height: 600 } },
    });
    expect(attachment.url).toMatch(/^http/);
    const read = await api('GET', `/api/v1/media/${attachment.id}`, ana);
    expect(read.statusCode).toBe(200);
    expect((await api('GET', `/api/v1/media/${attachment.id}`, ben)).statusCode).toBe(404);
    const updated = await api('PUT', `/api/v1/media/${attachment.id}`, ana, {
      description: 'a better study',
      focus: '0,0',
    });
    expect(updated.json().description).toBe('a better study');
    const badFocus = await api('PUT', `/api/v1/media/${attachment.id}`, ana, { focus: '3,0' });
    expect(badFocus.statusCode).toBe(422);
    const notAFile = await ctx.app.inject({
      method: 'POST',
      url: '/api/v2/media',
      headers: { ...auth(ana), 'content-type': 'application/json' },
      payload: {},
    });
    expect(notAFile.statusCode).toBe(415);
  });
});
