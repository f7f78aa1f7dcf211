import type { ServerContext } from '../../context.js';
import type { MediaModule } from '../media/index.js';
import type { PostsModule } from '../posts/index.js';
import type { SeriesModule } from '../series/index.js';
import { draftsRoutes } from './drafts.routes.js';
import { createDraftsService } from './drafts.service.js';

/**
 * The per-minute job that publishes the scheduled drafts that are due. A periodic job rather than one job per draft
 * sent to start at its time: moving or cancelling is then a change of the row alone (no job to find and cancel, no
 * stale job to recognise), a restart or a stopped worker loses nothing (the next minute's run finds what is due,
 * late ones included), and the claim on each draft (drafts.publishing_since, taken by one UPDATE … SKIP LOCKED) is
 * what keeps a draft from being published twice, whichever process runs it.
 */
export const DRAFT_JOBS = { publishDue: { kind: 'drafts.publish-due', every: '* * * * *' } } as const;

/** The drafts module (issue 41): the composer's drafts, kept private, and the scheduled posts' publishing. */
export async function wireDrafts(
  shared: ServerContext,
  { media, posts, series }: { media: MediaModule; posts: PostsModule; series: SeriesModule },
) {
  const { app, db, guards, jobs, log } = shared;
  const drafts = createDraftsService({ db, posts: posts.posts, media: media.media, series: series.series, log });
  jobs.define(
    DRAFT_JOBS.publishDue.kind,
    async () => {
      const published = await drafts.publishDue();
      if (published > 0) log.info({ published }, 'published scheduled posts');
    },
    { every: DRAFT_JOBS.publishDue.every, retryLimit: 2, retryDelaySeconds: 10, expireInSeconds: 600, batchSize: 1 },
  );
  await app.register(draftsRoutes, { prefix: '/api', drafts, posts: posts.posts, guards });
  return { drafts };
}

export type DraftsModule = Awaited<ReturnType<typeof wireDrafts>>;
