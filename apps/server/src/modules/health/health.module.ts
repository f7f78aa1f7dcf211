import type { ServerContext } from '../../context.js';
import type { MediaModule } from '../media/index.js';
import { healthRoutes } from './health.routes.js';

/** The health module: GET /api/health and /api/ready for operators and load balancers. */
export async function wireHealth(shared: ServerContext, { media }: { media: MediaModule }) {
  const { app, db, jobs, limiter } = shared;
  // GET /api/ready asks the pictures' storage itself: the folder's write probe, or the bucket (HeadBucket).
  await app.register(healthRoutes, {
    prefix: '/api',
    db,
    storageHealth: media.media.storageHealth,
    storageCheck: media.media.checkStorage,
    redisReachable: limiter.redisReachable,
    jobsCheck: jobs.check,
  });
}
