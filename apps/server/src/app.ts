import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { createTokenService } from './lib/tokens.js';
import { registerAuth } from './plugins/auth.js';
import { registerBodyParsers } from './plugins/body-parsers.js';
import { registerDocs } from './plugins/docs.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerSecurityHeaders } from './plugins/security.js';
import { registerStaticFiles } from './plugins/static-files.js';
import { registerValidation } from './plugins/validation.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { createUsersService } from './modules/users/users.service.js';

/** Builds the whole app from a config and an open database; it does not listen. */
export async function buildApp(config: Config, database: Database): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerValidation(app);
  registerErrorHandling(app);
  registerBodyParsers(app);
  await registerSecurityHeaders(app);
  await registerDocs(app);

  const { db } = database;
  const tokens = createTokenService(config.jwtSecret, config.jwtExpiresIn);
  const guards = registerAuth(app, tokens);
  const auth = createAuthService({ db, tokens, passwordHashCost: config.passwordHashCost });
  const users = createUsersService({ db });

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { db });
      await api.register(authRoutes, { auth });
      await api.register(usersRoutes, { users, guards });
    },
    { prefix: '/api' },
  );

  await registerStaticFiles(app, { mediaDir: config.mediaDir, webDistDir: config.webDistDir });
  return app;
}
