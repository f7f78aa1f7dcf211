import { COMPOSE_PARAM, SHARE_CACHE, SHARE_PARAM, sharedPartPath, type SharedMeta } from '../lib/pwa/protocol';

/** As many pictures as a post holds, and a little more: the composer says which it left out. */
const MAX_FILES = 20;
/** Shared items the composer never took (the app was closed before it opened) go after a day. */
const KEEP_MS = 24 * 3600 * 1000;

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value.slice(0, 10_000) : '';
};

/** Shared items older than KEEP_MS (their id starts with the time they came). */
async function dropOld(cache: Cache): Promise<void> {
  const now = Date.now();
  for (const request of await cache.keys()) {
    const id = new URL(request.url).pathname.split('/')[2] ?? '';
    const at = Number.parseInt(id.split('-')[0] ?? '', 36);
    if (!Number.isFinite(at) || now - at > KEEP_MS) await cache.delete(request);
  }
}

/**
 * The manifest's share_target (POST multipart to /share-target): the pictures, in the order they came, and the
 * title, text and link are kept in SHARE_CACHE under a new id, and the browser is sent (303) to the composer
 * on Home, which takes them (lib/pwa/shared-items.ts). Anything that is not a picture is left out.
 */
export async function handleShareTarget(request: Request): Promise<Response> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return Response.redirect(`/?${COMPOSE_PARAM}=1`, 303);
  }
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const files = form
    .getAll('files')
    .filter((value): value is File => typeof value !== 'string' && value.type.startsWith('image/'))
    .slice(0, MAX_FILES);
  const cache = await caches.open(SHARE_CACHE);
  await dropOld(cache);
  await Promise.all(
    files.map((file, index) =>
      cache.put(sharedPartPath(id, index), new Response(file, { headers: { 'content-type': file.type } })),
    ),
  );
  const meta: SharedMeta = {
    title: field(form, 'title'),
    text: field(form, 'text'),
    url: field(form, 'url'),
    files: files.map((file) => ({ name: file.name || 'shared-picture', type: file.type })),
  };
  await cache.put(
    sharedPartPath(id, 'meta'),
    new Response(JSON.stringify(meta), { headers: { 'content-type': 'application/json' } }),
  );
  return Response.redirect(`/?${COMPOSE_PARAM}=1&${SHARE_PARAM}=${id}`, 303);
}
