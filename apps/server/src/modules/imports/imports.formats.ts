import { Parser } from 'htmlparser2';
import {
  COMMENT_POLICIES,
  IMPORT_ERRORS,
  IMPORT_LIMITS,
  LICENCES,
  LIMITS,
  MEDIA_LIMITS,
  type ImportSource,
} from '@share-arts/contract';
import { ArchiveRefused, type Archive } from './imports.zip.js';

/**
 * What each archive brings, read into one shape (issue 40): its works, oldest first, each with its pictures in
 * their order. Everything in an archive is untrusted: every field is checked for its type and clipped to the
 * site's limits here, and what cannot be kept gets a reason the artist reads.
 */

/** One picture of a work: the file in the archive, or why it is left out. */
export interface SourcePicture {
  file: string | null;
  alt: string;
  name: string;
  skip: string | null;
}

/** The rights a Share Arts export carries; the defaults for other sources. */
export interface SourceRights {
  contentWarning: string | null;
  commentPolicy: 'everyone' | 'following' | 'nobody';
  licence: (typeof LICENCES)[number];
  aiGenerated: boolean;
  downloadable: boolean;
}

export interface SourceWork {
  /** What names the post in its archive, the same every time it is read. */
  key: string;
  caption: string;
  /** The original date (ISO), null when the archive gives none. */
  date: string | null;
  pictures: SourcePicture[];
  /** Why the whole post is left out (null: it is imported). */
  skip: string | null;
  rights: SourceRights;
  /** Tags as the source had them (a Share Arts export); else the caption's hashtags, if chosen. */
  tags: string[] | null;
  /** Its place among the pinned works (a Share Arts export), else null. */
  pin: number | null;
  /** A post without a picture is still a post here (a Share Arts export's). */
  textOnly: boolean;
}

/** The profile an archive holds: its bio as text, clipped to the site's limit, and its photo's file in the archive. */
export interface SourceProfile {
  bio: string;
  /** The photo's file in the archive (checked like any upload when the job applies it), null without one. */
  photo: string | null;
}

export interface Reading {
  source: ImportSource;
  /** The bio and photo the archive holds, null when it holds neither (applied only when the artist chooses so). */
  profile: SourceProfile | null;
  /** Whose archive it is, when it says (a Mastodon actor, a Share Arts account, an Instagram username). */
  origin: string | null;
  /** A Share Arts export's own account id (an export of this very account is refused). */
  accountId: string | null;
  works: SourceWork[];
}

const DEFAULT_RIGHTS: SourceRights = {
  contentWarning: null,
  commentPolicy: 'everyone',
  licence: 'all-rights-reserved',
  aiGenerated: false,
  downloadable: false,
};

const VIDEO = /\.(mp4|mov|m4v|webm|avi|mkv|3gp|mp3|m4a|ogg|wav)$/i;
const SKIP = {
  video: 'a video: Share Arts keeps pictures',
  boost: "a boost of someone else's post",
  reply: 'a reply to someone else',
  notPublic: 'followers-only or direct on its server: not made public here',
  notOwn: "another account's post",
  noPicture: 'no picture: Share Arts keeps works',
  duplicate: 'the same post twice in the archive',
  missing: 'its file is missing from the archive',
  tooLarge: `larger than ${MEDIA_LIMITS.maxBytes / 1024 / 1024} MB`,
  tooMany: `past the ${LIMITS.postPicturesMax} pictures a work holds`,
  removed: 'removed by the moderators of its server',
  hidden: 'hidden by the moderators of its server',
  caption: `its caption is longer than the ${LIMITS.postContentMax} characters a work holds`,
  date: (raw: string) => `its date (${raw.slice(0, 40)}) cannot be right`,
} as const;

/** The earliest date a work may keep; the latest is tomorrow. */
const EARLIEST = Date.UTC(1990, 0, 1);

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const clip = (value: string, max: number) => [...value].slice(0, max).join('');
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A date as given (ISO text, or seconds since 1970), checked: a date in the year 0 or 9999 is a reason. */
function dateOf(raw: unknown): { date: string | null; skip: string | null } {
  if (raw === undefined || raw === null || raw === '') return { date: null, skip: null };
  const time = typeof raw === 'number' ? raw * 1000 : typeof raw === 'string' ? Date.parse(raw) : NaN;
  if (!Number.isFinite(time) || time < EARLIEST || time > Date.now() + 86_400_000) {
    return { date: null, skip: SKIP.date(String(raw)) };
  }
  return { date: new Date(time).toISOString(), skip: null };
}

/** A work read from any source, its limits checked: the first reason to leave it out wins. */
function work(fields: Partial<SourceWork> & Pick<SourceWork, 'key' | 'caption' | 'pictures'>, rawDate: unknown) {
  const { date, skip: dateSkip } = dateOf(rawDate);
  const caption = fields.caption.replace(/\r\n?/g, '\n').trim();
  let kept = 0;
  const pictures = fields.pictures.map((item) => {
    if (item.skip) return item;
    kept += 1;
    return kept > LIMITS.postPicturesMax ? { ...item, skip: SKIP.tooMany } : item;
  });
  const noPicture = kept === 0 && (!fields.textOnly || !caption) ? (fields.pictures[0]?.skip ?? SKIP.noPicture) : null;
  const skip =
    fields.skip ?? dateSkip ?? ([...caption].length > LIMITS.postContentMax ? SKIP.caption : null) ?? noPicture;
  return {
    key: fields.key,
    caption,
    date,
    pictures,
    skip,
    rights: fields.rights ?? DEFAULT_RIGHTS,
    tags: fields.tags ?? null,
    pin: fields.pin ?? null,
    textOnly: fields.textOnly ?? false,
  } satisfies SourceWork;
}

/** A picture in the archive at `file`, or why it cannot be. */
function picture(archive: Archive, file: string, alt: string, video: boolean): SourcePicture {
  const name = file.split('/').pop() ?? file;
  const found = archive.files.get(file);
  const skip =
    video || VIDEO.test(file)
      ? SKIP.video
      : !found
        ? SKIP.missing
        : found.bytes > MEDIA_LIMITS.maxBytes
          ? SKIP.tooLarge
          : null;
  return { file: found ? file : null, alt: clip(alt.trim(), MEDIA_LIMITS.altMax), name: clip(name, 150), skip };
}

/**
 * A profile read from an archive: the bio as one text (paragraphs kept, at most the site's bio limit), the photo only
 * when its file is in the archive (a name of a file that is not there is nothing to apply). Null when neither is.
 */
function profileOf(archive: Archive, bio: string, photo: string | null): SourceProfile | null {
  // Control characters are refused in a bio typed here (BODY_TEXT): an archive's are dropped.
  const cleaned = bio.replace(/\r\n?/g, '\n').replace(/[^\P{Cc}\n\t]/gu, '');
  const kept = clip(cleaned.trim(), LIMITS.bioMax).trim();
  const file = photo && archive.files.has(photo) ? photo : null;
  return kept || file ? { bio: kept, photo: file } : null;
}

/** Parses an index read whole, refused past IMPORT_LIMITS.maxIndexBytes or when it is not JSON. */
async function readJson(archive: Archive, name: string): Promise<unknown> {
  const data = await archive.read(name, IMPORT_LIMITS.maxIndexBytes).catch((error: unknown) => {
    throw error instanceof ArchiveRefused && /larger than/.test(error.message)
      ? new ArchiveRefused(
          `${name} is larger than ${IMPORT_LIMITS.maxIndexBytes / 1024 / 1024} MB, more than an import reads at once: export a smaller part (a date range).`,
        )
      : error;
  });
  try {
    return JSON.parse(data.toString('utf8'));
  } catch {
    throw new ArchiveRefused(`${name} in the archive is not JSON: download the archive again from your old service.`);
  }
}

/** Oldest first; a post without a date keeps its place after the dated ones before it. */
const byDate = (works: SourceWork[]) =>
  works
    .map((item, i) => ({ item, i }))
    .sort((a, b) => (a.item.date && b.item.date ? a.item.date.localeCompare(b.item.date) : 0) || a.i - b.i)
    .map(({ item }) => item);

/** A work seen twice in one archive is left out the second time. */
function withoutDuplicates(works: SourceWork[]): SourceWork[] {
  const seen = new Set<string>();
  return works.map((item) => {
    if (!seen.has(item.key)) {
      seen.add(item.key);
      return item;
    }
    return { ...item, skip: SKIP.duplicate };
  });
}

/** The folder an archive's files are in (an archive often has one folder at its top), from where its index is. */
function find(archive: Archive, pattern: RegExp): { name: string; root: string } | undefined {
  for (const name of archive.files.keys()) {
    const match = pattern.exec(name);
    if (match) return { name, root: name.slice(0, match.index + (match[0].startsWith('/') ? 1 : 0)) };
  }
  return undefined;
}

// Instagram ---------------------------------------------------------------------------------------------------

/**
 * Instagram writes its text as UTF-8 bytes each escaped as a character (`\u00c3\u00a9` for é): text whose every
 * character is a byte, and that reads as UTF-8, is read again as UTF-8.
 */
export function instagramText(value: unknown): string {
  const raw = text(value);
  if (!/[\u0080-\u00ff]/.test(raw) || [...raw].some((char) => char.charCodeAt(0) > 0xff)) return raw;
  const decoded = Buffer.from(raw, 'latin1').toString('utf8');
  return decoded.includes('\ufffd') ? raw : decoded;
}

const INSTAGRAM_POSTS = /(?:^|\/)(?:your_instagram_activity\/media\/|content\/)?posts_\d+\.json$/;
const INSTAGRAM_OLD = /(?:^|\/)media\.json$/;
const INSTAGRAM_HTML = /(?:^|\/)(?:start_here\.html|your_instagram_activity\/.*\.html|content\/posts_\d+\.html)$/;

/**
 * Who the export's account is, and its profile, from personal_information.json (wherever the layout puts it: the
 * current one in personal_information/personal_information/, under the archive's top folder or none): `profile_user[0]`, its
 * `string_map_data` (Username, Bio: each `{ value }`) and `media_map_data["Profile Photo"].uri`, a path from the
 * archive's top like the posts' pictures. A file that does not read is no reason to refuse the posts.
 */
async function instagramAccount(
  archive: Archive,
  root: string,
): Promise<{ origin: string | null; profile: SourceProfile | null }> {
  const info = [...archive.files.keys()].find(
    (name) => name.startsWith(root) && /personal_information\.json$/.test(name),
  );
  if (!info) return { origin: null, profile: null };
  const json = record(await readJson(archive, info).catch(() => null));
  const user = record(list(json.profile_user)[0]);
  const strings = record(user.string_map_data);
  const username = text(record(strings.Username).value);
  const photo = text(record(record(user.media_map_data)['Profile Photo']).uri);
  return {
    origin: username ? `instagram:${instagramText(username).toLowerCase()}` : null,
    profile: profileOf(archive, instagramText(record(strings.Bio).value), photo ? root + photo : null),
  };
}

/** Instagram's posts_N.json (the current layout and the older one under content/ or at the top). */
function instagramPosts(archive: Archive, root: string, items: unknown[]): SourceWork[] {
  return items.map((raw) => {
    const post = record(raw);
    const media = list(post.media).map(record);
    const first = media[0] ?? {};
    const caption = instagramText(post.title ?? first.title);
    const rawDate = post.creation_timestamp ?? first.creation_timestamp;
    const pictures = media.map((item) =>
      picture(archive, root + text(item.uri), '', record(item.media_metadata).video_metadata !== undefined),
    );
    return work({ key: `instagram:${String(rawDate)}:${text(first.uri)}`, caption, pictures }, rawDate);
  });
}

/** Instagram's oldest layout (until 2020): media.json, each photo a post. */
function instagramOld(archive: Archive, root: string, json: unknown): SourceWork[] {
  const index = record(json);
  const photos = list(index.photos).map((raw) => {
    const photo = record(raw);
    const caption = instagramText(photo.caption);
    const pictures = [picture(archive, root + text(photo.path), '', false)];
    return work({ key: `instagram:${text(photo.taken_at)}:${text(photo.path)}`, caption, pictures }, photo.taken_at);
  });
  const videos = list(index.videos).map((raw) => {
    const video = record(raw);
    const pictures = [picture(archive, root + text(video.path), '', true)];
    return work(
      { key: `instagram:${text(video.taken_at)}:${text(video.path)}`, caption: instagramText(video.caption), pictures },
      video.taken_at,
    );
  });
  return [...photos, ...videos];
}

async function readInstagram(archive: Archive): Promise<Reading | undefined> {
  const index = find(archive, INSTAGRAM_POSTS);
  const old = index ? undefined : find(archive, INSTAGRAM_OLD);
  if (!index && !old) {
    if (find(archive, INSTAGRAM_HTML)) throw new ArchiveRefused(IMPORT_ERRORS.instagramHtml);
    return undefined;
  }
  const { root } = (index ?? old)!;
  let works: SourceWork[];
  if (index) {
    const folder = index.name.slice(0, index.name.lastIndexOf('/') + 1);
    const pages = [...archive.files.keys()].filter(
      (name) =>
        name.startsWith(folder) &&
        /posts_\d+\.json$/.test(name.slice(folder.length)) &&
        !name.slice(folder.length).includes('/'),
    );
    works = [];
    for (const page of pages.sort()) {
      const json = await readJson(archive, page);
      if (!Array.isArray(json)) throw new ArchiveRefused(`${page} in the archive is not a list of posts.`);
      works.push(...instagramPosts(archive, root, json));
    }
  } else {
    works = instagramOld(archive, root, await readJson(archive, old!.name));
  }
  const account = await instagramAccount(archive, root);
  return {
    source: 'instagram',
    origin: account.origin,
    profile: account.profile,
    accountId: null,
    works: byDate(withoutDuplicates(works)),
  };
}

// Mastodon and Pixelfed ---------------------------------------------------------------------------------------

const PUBLIC = new Set(['https://www.w3.org/ns/activitystreams#Public', 'as:Public', 'Public']);

/** A post's HTML as text: paragraphs and line breaks kept as new lines, every tag dropped, entities decoded. */
export function htmlText(html: string): string {
  let out = '';
  const parser = new Parser(
    {
      onopentag: (name) => {
        if (name === 'br') out += '\n';
        else if (name === 'p' && out) out += '\n\n';
      },
      ontext: (value) => {
        out += value;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out.replace(/\n{3,}/g, '\n\n').trim();
}

/** An attachment's path in the archive: Mastodon writes it relative (`media_attachments/files/…`), some servers a URL. */
function attachmentPath(url: unknown, root: string): string {
  const value = text(Array.isArray(url) ? (record(url[0]).href ?? url[0]) : url);
  let path = value;
  if (/^https?:\/\//.test(value)) {
    try {
      path = new URL(value).pathname;
    } catch {
      path = value;
    }
  }
  return root + path.replace(/^\/+/, '').replace(/^system\//, '');
}

function fediversePost(archive: Archive, root: string, raw: unknown, actorId: string, own: Set<string>): SourceWork {
  const activity = record(raw);
  const key = text(activity.id) || JSON.stringify(activity).slice(0, 200);
  const note = record(activity.object);
  const base = { key: text(note.id) || key, caption: '', pictures: [] as SourcePicture[] };
  if (activity.type === 'Announce') return work({ ...base, skip: SKIP.boost }, activity.published);
  if (activity.type !== 'Create' || !note.type) return work({ ...base, skip: SKIP.notOwn }, null);
  if (text(activity.actor) !== actorId || (note.attributedTo && text(note.attributedTo) !== actorId)) {
    return work({ ...base, skip: SKIP.notOwn }, note.published);
  }
  const caption = htmlText(text(note.content));
  const reply = text(note.inReplyTo);
  const audience = [...list(note.to), ...list(note.cc), ...list(activity.to), ...list(activity.cc)].map(text);
  const pictures = list(note.attachment).map((raw2) => {
    const attachment = record(raw2);
    const type = text(attachment.mediaType);
    return picture(archive, attachmentPath(attachment.url, root), text(attachment.name), /^(video|audio)\//.test(type));
  });
  const warning = clip(htmlText(text(note.summary)).replace(/\s+/g, ' ').trim(), 100);
  const skip = reply && !own.has(reply) ? SKIP.reply : !audience.some((to) => PUBLIC.has(to)) ? SKIP.notPublic : null;
  return work(
    {
      ...base,
      caption,
      pictures,
      skip,
      rights: { ...DEFAULT_RIGHTS, contentWarning: warning || (note.sensitive === true ? 'sensitive' : null) },
    },
    note.published ?? activity.published,
  );
}

async function readFediverse(archive: Archive): Promise<Reading | undefined> {
  const outbox = find(archive, /(?:^|\/)outbox\.json$/);
  if (!outbox || !archive.files.has(`${outbox.root}actor.json`)) return undefined;
  const actor = record(await readJson(archive, `${outbox.root}actor.json`));
  const actorId = text(actor.id);
  if (!actorId) throw new ArchiveRefused('actor.json in the archive names no account: download the archive again.');
  const items = list(record(await readJson(archive, outbox.name)).orderedItems);
  const own = new Set(items.map((item) => text(record(record(item).object).id)).filter(Boolean));
  const works = items.map((item) => fediversePost(archive, outbox.root, item, actorId, own));
  // Pixelfed's posts live at /p/{username}/{id}, and its actor's context names it.
  const pixelfed =
    JSON.stringify(actor['@context'] ?? '').includes('pixelfed') ||
    items.some((item) => /\/p\/[^/]+\/\d+$/.test(text(record(record(item).object).url)));
  // The actor's `summary` is its bio (HTML, read as the posts are); `icon.url` its photo, a path in the archive
  // (Mastodon writes `avatar.png` beside actor.json) or a URL whose path is looked up, as an attachment's is.
  const icon = record(Array.isArray(actor.icon) ? actor.icon[0] : actor.icon);
  return {
    source: pixelfed ? 'pixelfed' : 'mastodon',
    origin: `fediverse:${actorId}`,
    profile: profileOf(archive, htmlText(text(actor.summary)), icon.url ? attachmentPath(icon.url, outbox.root) : null),
    accountId: null,
    works: byDate(withoutDuplicates(works)),
  };
}

// Share Arts --------------------------------------------------------------------------------------------------

/** A Share Arts export's post (one line of its posts.json), its rights checked against the site's own lists. */
function shareArtsPost(archive: Archive, root: string, raw: unknown, pins: Map<string, number>): SourceWork {
  const post = record(raw);
  const id = text(post.id);
  const moderation = text(record(post.moderation).state);
  const warning = text(post.contentWarning).trim();
  const rights: SourceRights = {
    contentWarning: warning ? clip(warning, 100) : null,
    commentPolicy: (COMMENT_POLICIES as readonly string[]).includes(text(post.commentPolicy))
      ? (post.commentPolicy as SourceRights['commentPolicy'])
      : 'everyone',
    licence: (LICENCES as readonly string[]).includes(text(post.licence))
      ? (post.licence as SourceRights['licence'])
      : 'all-rights-reserved',
    aiGenerated: post.aiGenerated === true,
    downloadable: post.downloadable === true,
  };
  const pictures = list(post.pictures).map((raw2) => {
    const item = record(raw2);
    const found = picture(archive, root + text(item.file), text(item.alt), false);
    return { ...found, name: clip(text(item.originalName) || found.name, 150) };
  });
  return work(
    {
      key: `share-arts:${id}`,
      caption: text(post.content),
      pictures,
      rights,
      tags: list(post.tags)
        .map(text)
        .filter((tag) => /^[\p{L}\p{N}_]{1,100}$/u.test(tag)),
      pin: pins.get(id) ?? null,
      textOnly: true,
      skip: moderation === 'removed' ? SKIP.removed : moderation === 'hidden' ? SKIP.hidden : null,
    },
    post.createdAt,
  );
}

async function readShareArts(archive: Archive): Promise<Reading | undefined> {
  const posts = find(archive, /(?:^|\/)posts\.json$/);
  if (!posts || !archive.files.has(`${posts.root}profile.json`) || !archive.files.has(`${posts.root}pictures.json`)) {
    return undefined;
  }
  const { root } = posts;
  const profile = record(await readJson(archive, `${root}profile.json`));
  const accountId = text(profile.id);
  const pins = new Map<string, number>();
  if (archive.files.has(`${root}pins.json`)) {
    for (const raw of list(await readJson(archive, `${root}pins.json`))) {
      const pin = record(raw);
      if (typeof pin.position === 'number') pins.set(text(pin.postId), pin.position);
    }
  }
  // posts.json holds every comment on every post, so it is read a line (a post) at a time, never whole.
  const works: SourceWork[] = [];
  for await (const line of archive.lines(posts.name, IMPORT_LIMITS.maxIndexBytes)) {
    // Each post is a line of its own, the comma between two at the end of the first.
    const item = line.trim().replace(/,$/, '');
    if (!item.startsWith('{')) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(item);
    } catch {
      throw new ArchiveRefused('posts.json in the archive is not JSON: download your data again.');
    }
    works.push(shareArtsPost(archive, root, parsed, pins));
  }
  // profile.json's bio, and its photo's original in the archive (`photo.file`, null when it was not kept).
  const photo = text(record(profile.photo).file);
  return {
    source: 'share-arts',
    origin: accountId ? `share-arts:${accountId}` : null,
    profile: profileOf(archive, text(profile.bio), photo ? root + photo : null),
    accountId: accountId || null,
    works: byDate(withoutDuplicates(works)),
  };
}

/** Reads whichever archive this is, or refuses it with a sentence saying what it accepts. */
export async function readArchive(archive: Archive): Promise<Reading> {
  const reading = (await readShareArts(archive)) ?? (await readFediverse(archive)) ?? (await readInstagram(archive));
  if (!reading) throw new ArchiveRefused(IMPORT_ERRORS.unknown);
  return reading;
}
