import type { ServerContext } from '../../context.js';
import type { PostsModule } from '../posts/index.js';
import { seriesRoutes } from './series.routes.js';
import { createSeriesService } from './series.service.js';

/** The series module (issue 41): an artist's own works in order, shown as the posts module shows posts. */
export async function wireSeries(
  shared: ServerContext<{ publicOrigin: string | undefined }>,
  { posts }: { posts: PostsModule },
) {
  const { app, config, db, guards } = shared;
  const series = createSeriesService({ db, posts: posts.posts });
  await app.register(seriesRoutes, { prefix: '/api', series, guards, publicOrigin: config.publicOrigin });
  return { series };
}

export type SeriesModule = Awaited<ReturnType<typeof wireSeries>>;
