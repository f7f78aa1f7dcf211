import {
  COMMISSION_KINDS,
  ERRORS,
  type CommissionFilterQuery,
  type Commissions,
  type CommissionsBody,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { publish } from '../../events/events.js';
import { notifyCommissionsOpen } from '../../events/notification-rules.js';
import { isForeignKeyViolation } from '../../lib/db-errors.js';
import { badRequest, notFound } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import { toPicture } from '../media/index.js';
import {
  deleteWatcher,
  insertWatcher,
  lockProfile,
  markWatchersTold,
  replaceExamples,
  selectArtist,
  selectExamples,
  selectOwnPublicWorks,
  selectProfile,
  selectWatching,
  upsertProfile,
  type CommissionFilter,
  type ProfileRow,
} from './commissions.sql.js';

/** Every refusal of the commissions routes, each saying what to do instead. */
export const COMMISSION_ERRORS = {
  slotsTaken: 'slots.taken must be at most slots.total: you cannot have more slots taken than you offer.',
  priceOrder: 'price.min must be at most price.max: give the lowest price first.',
  termsUrl: 'termsUrl must be an https:// link to a page, like https://example.com/terms.',
  language: (tag: string) => `"${tag}" is not a BCP 47 language tag: use codes like en, fr or pt-BR.`,
  examplesTwice: 'examples must name each work once.',
  notYourWork:
    'examples must be your own public works posted here: one of them is someone else’s, from another server, hidden by a moderator, or does not exist.',
  watchSelf: 'You cannot ask to be told when you open yourself: this is your own panel.',
  notFollowing: 'Only followers may ask to be told when an artist opens: follow them first.',
  filterCurrency:
    'currency is needed with priceMin or priceMax: prices are compared in one currency (artists who price in another are left out).',
  filterOrder: 'priceMin must be at most priceMax.',
} as const;

/**
 * The filter a list's query asks for (search, a tag's posts, Explore), or undefined for none. Any of kind, currency
 * or a price bound implies open; a price bound needs its currency (400 otherwise), and the bounds their order.
 */
export function commissionFilterOf(query: CommissionFilterQuery): CommissionFilter | undefined {
  const { open, kind, currency, priceMin, priceMax } = query;
  if ((priceMin !== undefined || priceMax !== undefined) && !currency)
    throw badRequest(COMMISSION_ERRORS.filterCurrency);
  if (priceMin !== undefined && priceMax !== undefined && priceMin > priceMax)
    throw badRequest(COMMISSION_ERRORS.filterOrder);
  if (!open && !kind && !currency) return undefined;
  return { kind, currency, priceMin, priceMax };
}

/** The canonical form of each language tag, each once, in the order given (400 for one that is not BCP 47). */
function canonicalLanguages(tags: string[]): string[] {
  const seen = new Set<string>();
  for (const tag of tags) {
    let canonical: string | undefined;
    try {
      [canonical] = Intl.getCanonicalLocales(tag);
    } catch {
      throw badRequest(COMMISSION_ERRORS.language(tag));
    }
    if (!canonical) throw badRequest(COMMISSION_ERRORS.language(tag));
    seen.add(canonical);
  }
  return [...seen];
}

function httpsLink(link: string | null | undefined): string | null {
  const trimmed = link?.trim();
  if (!trimmed) return null;
  const url = URL.parse(trimmed);
  if (!url || url.protocol !== 'https:' || !url.hostname) throw badRequest(COMMISSION_ERRORS.termsUrl);
  return url.href;
}

const KIND_ORDER = new Map<string, number>(COMMISSION_KINDS.map((kind, i) => [kind, i]));

/** An artist who never filled in their panel: closed, empty. */
const EMPTY: ProfileRow = {
  open: false,
  kinds: [],
  kinds_note: '',
  slots_total: null,
  slots_taken: 0,
  currency: null,
  price_min: null,
  price_max: null,
  turnaround_days: null,
  terms: '',
  terms_url: null,
  languages: [],
  opened_at: null,
  updated_at: '',
};

/** Open for commissions (issue 42): an artist's panel, its changes, and "Tell me when they open". */
export function createCommissionsService({ db }: { db: Db }) {
  /** The artist's panel as the viewer sees it; 404 when the artist is not there for them. */
  async function panel(by: { username: string } | { id: string }, viewerId: string | null): Promise<Commissions> {
    const artist = await selectArtist(db, by, viewerId);
    if (!artist || artist.hidden) throw notFound(ERRORS.userNotFound);
    const isOwner = viewerId === artist.id;
    const [row, examples, watching] = await Promise.all([
      selectProfile(db, artist.id),
      artist.works_hidden ? [] : selectExamples(db, artist.id, viewerId),
      viewerId === null || isOwner ? false : selectWatching(db, artist.id, viewerId),
    ]);
    const profile = row ?? EMPTY;
    return {
      open: profile.open,
      kinds: [...profile.kinds].sort(
        (a, b) => (KIND_ORDER.get(a) ?? 99) - (KIND_ORDER.get(b) ?? 99),
      ) as Commissions['kinds'],
      kindsNote: profile.kinds_note,
      slots: profile.slots_total === null ? null : { total: profile.slots_total, taken: profile.slots_taken },
      price:
        profile.currency === null
          ? null
          : {
              currency: profile.currency as NonNullable<Commissions['price']>['currency'],
              min: profile.price_min!,
              max: profile.price_max!,
            },
      turnaroundDays: profile.turnaround_days,
      terms: profile.terms,
      termsUrl: profile.terms_url,
      languages: profile.languages,
      examples: examples.map((example) => ({
        _id: example.id,
        picture: example.media ? toPicture(example.media) : null,
        contentWarning: example.content_warning,
        content: example.content,
      })),
      openedAt: profile.opened_at,
      updatedAt: row ? profile.updated_at : null,
      viewer: { isOwner, watching, canWatch: !isOwner && artist.viewer_follows },
    };
  }

  return {
    panel,

    /**
     * Replaces the user's whole panel. Opening (from closed, or the first time) sets openedAt and tells the watchers
     * not told in the last day; a change of open or closed drops the cached posts that show the "open" badge.
     */
    async save(userId: string, body: CommissionsBody): Promise<Commissions> {
      const slots = body.slots ?? null;
      if (slots && slots.taken > slots.total) throw badRequest(COMMISSION_ERRORS.slotsTaken);
      const price = body.price ?? null;
      if (price && price.min > price.max) throw badRequest(COMMISSION_ERRORS.priceOrder);
      const termsUrl = httpsLink(body.termsUrl);
      const languages = canonicalLanguages(body.languages ?? []);
      const examples = (body.examples ?? []).map((id) => id.toLowerCase());
      if (new Set(examples).size !== examples.length) throw badRequest(COMMISSION_ERRORS.examplesTwice);
      if (!examples.every(isUuid)) throw badRequest(COMMISSION_ERRORS.notYourWork);
      await db
        .transaction(async (tx) => {
          const own = new Set(await selectOwnPublicWorks(tx, userId, examples));
          if (!examples.every((id) => own.has(id))) throw badRequest(COMMISSION_ERRORS.notYourWork);
          const before = await lockProfile(tx, userId);
          const wasOpen = before?.open ?? false;
          const opening = body.open && !wasOpen;
          await upsertProfile(
            tx,
            userId,
            {
              open: body.open,
              kinds: [...new Set(body.kinds ?? [])],
              kindsNote: body.kindsNote?.trim() ?? '',
              slotsTotal: slots?.total ?? null,
              slotsTaken: slots?.taken ?? 0,
              currency: price?.currency ?? null,
              priceMin: price?.min ?? null,
              priceMax: price?.max ?? null,
              turnaroundDays: body.turnaroundDays ?? null,
              terms: body.terms?.trim() ?? '',
              termsUrl,
              languages,
            },
            opening,
          );
          await replaceExamples(tx, userId, examples);
          if (opening) await notifyCommissionsOpen(tx, userId, await markWatchersTold(tx, userId));
          // The "open" badge on their posts (the post cache) and in people searches.
          if (body.open !== wasOpen) await publish(tx, { type: 'author-changed', userId });
        })
        .catch((error: unknown) => {
          // A work deleted between its check and the write.
          if (isForeignKeyViolation(error, 'commission_examples_post_id_posts_id_fk'))
            throw badRequest(COMMISSION_ERRORS.notYourWork);
          throw error;
        });
      return panel({ id: userId }, userId);
    },

    /** "Tell me when they open" on or off (idempotent): followers of the artist only. */
    async watch(viewerId: string, username: string, on: boolean): Promise<Commissions> {
      const artist = await selectArtist(db, { username }, viewerId);
      if (!artist || artist.hidden) throw notFound(ERRORS.userNotFound);
      if (on) {
        if (artist.id === viewerId) throw badRequest(COMMISSION_ERRORS.watchSelf);
        if (!artist.viewer_follows) throw badRequest(COMMISSION_ERRORS.notFollowing);
        await insertWatcher(db, artist.id, viewerId);
      } else {
        await deleteWatcher(db, artist.id, viewerId);
      }
      return panel({ id: artist.id }, viewerId);
    },
  };
}

export type CommissionsService = ReturnType<typeof createCommissionsService>;
