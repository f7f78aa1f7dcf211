import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../../lib/http-error.js';
import { recordNotFound, validationFailed } from './errors.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { listParam, MASTODON_ROUTE, textParam } from './params.js';

/**
 * Filters (issue 45) over our muted words, said honestly. Share Arts keeps one list of muted words per person (at
 * most 200, each a whole word or a #tag, matched in any letter case); a work carrying one leaves their Home,
 * Explore, tag pages and searches (their own works never). So:
 * - v2: the whole list is ONE filter, id `muted-words`, title "Muted words", context `home` and `public` (where
 *   our muted words apply), `filter_action` hide, no expiry; each muted word is one of its keywords (id: the word,
 *   `whole_word` true). Creating a filter adds its keywords to the list (the title, contexts, action and expiry
 *   asked for are not kept; the answer says what is); deleting the filter empties the list.
 * - v1: each muted word is one filter (id: the word, `irreversible` true: it hides, not warns).
 * Notifications and threads are not filtered by muted words here, so those contexts are never claimed.
 */
export const FILTER_ID = 'muted-words';
const TITLE = 'Muted words';
const CONTEXT = ['home', 'public'];

interface MutedWord {
  word: string;
  createdAt: string;
}

const keyword = (word: string) => ({ id: word, keyword: word, whole_word: true });

function filterOf(words: readonly MutedWord[]) {
  return {
    id: FILTER_ID,
    title: TITLE,
    context: CONTEXT,
    expires_at: null,
    filter_action: 'hide',
    keywords: words.map((muted) => keyword(muted.word)),
    statuses: [],
  };
}

const v1FilterOf = (word: string) => ({
  id: word,
  phrase: word,
  context: CONTEXT,
  whole_word: true,
  expires_at: null,
  irreversible: true,
});

/** Keywords of a create or update: `keywords_attributes[][keyword]` (a form) or `keywords_attributes: [{…}]`. */
function keywordAttributes(body: unknown): { keyword?: string; id?: string; destroy: boolean }[] {
  if (typeof body !== 'object' || body === null) return [];
  const raw = (body as Record<string, unknown>).keywords_attributes;
  const list = Array.isArray(raw) ? raw : typeof raw === 'object' && raw !== null ? Object.values(raw) : [];
  return list.flatMap((item) => {
    if (typeof item !== 'object' || item === null) return [];
    const record = item as Record<string, unknown>;
    const destroy = ['true', '1', true].includes(record._destroy as string | boolean);
    const kw = typeof record.keyword === 'string' ? record.keyword : undefined;
    const id = typeof record.id === 'string' ? record.id : undefined;
    return [{ ...(kw !== undefined ? { keyword: kw } : {}), ...(id !== undefined ? { id } : {}), destroy }];
  });
}

export function filtersRoutes(app: FastifyInstance, { safety, requireScopes }: MastodonDeps): void {
  const read = { schema: MASTODON_ROUTE, preHandler: requireScopes('read', 'read:filters') };
  const write = { schema: MASTODON_ROUTE, preHandler: requireScopes('write', 'write:filters') };
  const words = async (request: FastifyRequest) => (await safety.mutedWords(request.userId!)).words;

  /** Adds a word; one already muted is no error here (Mastodon's filters may repeat a keyword). */
  async function add(userId: string, word: string) {
    try {
      await safety.addMutedWord(userId, word);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 409) return;
      throw error;
    }
  }
  async function remove(userId: string, word: string) {
    try {
      await safety.removeMutedWord(userId, word);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404) return;
      throw error;
    }
  }
  const idOf = (request: FastifyRequest) => decodeURIComponent((request.params as { id: string }).id);
  async function mustBeTheFilter(request: FastifyRequest) {
    if (idOf(request) !== FILTER_ID) throw recordNotFound();
    const list = await words(request);
    if (list.length === 0) throw recordNotFound();
    return list;
  }

  // ── v2 ──
  app.get('/v2/filters', read, async (request) => {
    const list = await words(request);
    return list.length === 0 ? [] : [filterOf(list)];
  });
  app.get('/v2/filters/:id', read, async (request) => filterOf(await mustBeTheFilter(request)));
  app.post('/v2/filters', write, async (request) => {
    if (!textParam(request.body, 'title')) throw validationFailed("Title can't be blank");
    const adds = keywordAttributes(request.body).filter((item) => !item.destroy && item.keyword);
    if (adds.length === 0) throw validationFailed('a filter here is a list of muted words: give keywords_attributes');
    for (const item of adds) await add(request.userId!, item.keyword!);
    return filterOf(await words(request));
  });
  app.put('/v2/filters/:id', write, async (request) => {
    await mustBeTheFilter(request);
    for (const item of keywordAttributes(request.body)) {
      if (item.destroy && (item.id ?? item.keyword)) await remove(request.userId!, (item.id ?? item.keyword)!);
      else if (item.id && item.keyword && item.id !== item.keyword) {
        await remove(request.userId!, item.id);
        await add(request.userId!, item.keyword);
      } else if (item.keyword) await add(request.userId!, item.keyword);
    }
    return filterOf(await words(request));
  });
  app.delete('/v2/filters/:id', write, async (request) => {
    const list = await mustBeTheFilter(request);
    for (const muted of list) await remove(request.userId!, muted.word);
    return {};
  });
  app.get('/v2/filters/:id/keywords', read, async (request) =>
    (await mustBeTheFilter(request)).map((muted) => keyword(muted.word)),
  );
  app.post('/v2/filters/:id/keywords', write, async (request) => {
    if (idOf(request) !== FILTER_ID) throw recordNotFound();
    const word = textParam(request.body, 'keyword');
    if (!word) throw validationFailed("Keyword can't be blank");
    await safety.addMutedWord(request.userId!, word);
    const added = (await words(request)).find(
      (muted) => muted.word.toLowerCase() === word.trim().replace(/\s+/gu, ' ').toLowerCase(),
    );
    return keyword(added?.word ?? word);
  });
  const findWord = async (request: FastifyRequest) => {
    const id = idOf(request).toLowerCase();
    const found = (await words(request)).find((muted) => muted.word.toLowerCase() === id);
    if (!found) throw recordNotFound();
    return found.word;
  };
  app.get('/v2/filters/keywords/:id', read, async (request) => keyword(await findWord(request)));
  app.put('/v2/filters/keywords/:id', write, async (request) => {
    const old = await findWord(request);
    const word = textParam(request.body, 'keyword');
    if (!word) throw validationFailed("Keyword can't be blank");
    if (word !== old) {
      await safety.addMutedWord(request.userId!, word);
      await remove(request.userId!, old);
    }
    return keyword(word.trim().replace(/\s+/gu, ' '));
  });
  app.delete('/v2/filters/keywords/:id', write, async (request) => {
    await safety.removeMutedWord(request.userId!, await findWord(request));
    return {};
  });
  // One status per filter: none here (statuses are not muted one by one).
  app.get('/v2/filters/:id/statuses', read, async (request) => {
    await mustBeTheFilter(request);
    return [];
  });

  // ── v1 (each muted word a filter) ──
  app.get('/v1/filters', read, async (request) => (await words(request)).map((muted) => v1FilterOf(muted.word)));
  app.get('/v1/filters/:id', read, async (request) => v1FilterOf(await findWord(request)));
  app.post('/v1/filters', write, async (request) => {
    const phrase = textParam(request.body, 'phrase');
    if (!phrase) throw validationFailed("Phrase can't be blank");
    if (listParam(request.body, 'context').length === 0) throw validationFailed("Context can't be blank");
    const added = await safety.addMutedWord(request.userId!, phrase);
    return v1FilterOf(added.word);
  });
  app.put('/v1/filters/:id', write, async (request) => {
    const old = await findWord(request);
    const phrase = textParam(request.body, 'phrase') ?? old;
    if (phrase !== old) {
      await safety.addMutedWord(request.userId!, phrase);
      await remove(request.userId!, old);
    }
    return v1FilterOf(phrase.trim().replace(/\s+/gu, ' '));
  });
  app.delete('/v1/filters/:id', write, async (request) => {
    await safety.removeMutedWord(request.userId!, await findWord(request));
    return {};
  });
}
