import type { InsightsDay, InsightsSource, PostInsights, ProfileInsights, ViewSource } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { HttpError } from '../../lib/http-error.js';
import { isUuid } from '../../lib/ids.js';
import { jpegFor, mediaUrl } from '../media/index.js';
import {
  selectPostDays,
  selectPostOwner,
  selectProfileDays,
  selectSources,
  selectTopWorks,
  type DayRow,
  type SourceRow,
} from './insights.sql.js';

export const INSIGHTS_ERRORS = {
  postNotFound: 'There is no work of yours with this id: insights are shown to its artist only. Check the link.',
} as const;

/** Sites listed by name in a window's sources: past them, the rest are added to "Other sites". */
export const HOSTS_SHOWN = 10;

/** The window of the last `days` UTC days, today included. */
export function windowOf(days: number, now: number): { from: string; to: string } {
  const today = Date.parse(new Date(now).toISOString().slice(0, 10));
  const day = (time: number) => new Date(time).toISOString().slice(0, 10);
  return { from: day(today - (days - 1) * 86_400_000), to: day(today) };
}

const totalsOf = (rows: DayRow[]) => ({
  views: rows.reduce((sum, row) => sum + row.views, 0),
  likes: rows.reduce((sum, row) => sum + row.likes, 0),
  saves: rows.reduce((sum, row) => sum + row.saves, 0),
  collections: rows.reduce((sum, row) => sum + row.collections, 0),
});

const dayOf = (row: DayRow, profile: boolean): InsightsDay => ({
  day: row.day,
  views: row.views,
  likes: row.likes,
  saves: row.saves,
  collections: row.collections,
  ...(profile ? { workViews: row.work_views } : {}),
});

/** The sources, the most first; the sites past the first HOSTS_SHOWN of each kind summed under a null host. */
export function sourcesOf(rows: SourceRow[]): InsightsSource[] {
  const shown: InsightsSource[] = [];
  const rest = new Map<ViewSource, number>();
  const named = new Map<string, number>();
  for (const row of rows) {
    const source = row.source as ViewSource;
    if (!row.host) {
      shown.push({ source, host: null, views: row.views });
      continue;
    }
    const seen = named.get(source) ?? 0;
    if (seen < HOSTS_SHOWN) {
      named.set(source, seen + 1);
      shown.push({ source, host: row.host, views: row.views });
    } else rest.set(source, (rest.get(source) ?? 0) + row.views);
  }
  for (const [source, views] of rest) shown.push({ source, host: null, views });
  return shown.sort((a, b) => b.views - a.views);
}

export function createInsightsService({ db, now }: { db: Db; now: () => number }) {
  return {
    /** A work's insights, for its artist only: anyone else, and an unknown work, 404. */
    async post(viewerId: string, postId: string, days: number): Promise<PostInsights> {
      const owner = isUuid(postId) ? await selectPostOwner(db, postId) : undefined;
      if (!owner || owner.author_id !== viewerId) throw new HttpError(404, INSIGHTS_ERRORS.postNotFound);
      const window = windowOf(days, now());
      const [rows, sources] = await Promise.all([
        selectPostDays(db, postId, window),
        selectSources(db, { postId }, window),
      ]);
      return {
        postId,
        days,
        ...window,
        totals: totalsOf(rows),
        daily: rows.map((row) => dayOf(row, false)),
        sources: sourcesOf(sources),
      };
    },

    /** The signed-in artist's profile and works, together. */
    async profile(userId: string, days: number): Promise<ProfileInsights> {
      const window = windowOf(days, now());
      const [rows, sources, works] = await Promise.all([
        selectProfileDays(db, userId, window),
        selectSources(db, { userId }, window),
        selectTopWorks(db, userId, window),
      ]);
      return {
        days,
        ...window,
        totals: totalsOf(rows),
        workViews: rows.reduce((sum, row) => sum + row.work_views, 0),
        daily: rows.map((row) => dayOf(row, true)),
        sources: sourcesOf(sources),
        works: works.map((work) => {
          const variant = work.variants ? jpegFor(work.variants as never, 160) : undefined;
          return {
            _id: work.id,
            content: work.content,
            thumbnail: variant ? mediaUrl(variant.file) : work.original_file ? mediaUrl(work.original_file) : null,
            views: work.views,
            likes: work.likes,
            saves: work.saves,
            collections: work.collections,
          };
        }),
      };
    },
  };
}

export type InsightsService = ReturnType<typeof createInsightsService>;
