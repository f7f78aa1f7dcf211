import type { ServerContext } from '../../context.js';
import type { MailModule } from '../mail/index.js';
import { createAccountSecurity } from './account-security.js';
import { createSessionsService } from './sessions.service.js';
import { sessionsRoutes } from './sessions.routes.js';

/** config.jwtExpiresIn is "<seconds>s": a session lives as long as its token. */
export const sessionLifetimeOf = (jwtExpiresIn: string) => Number.parseInt(jwtExpiresIn, 10);

/**
 * The sessions module: the sessions list, LOG OUT, ending sessions, the password change, and the account's
 * security (issue 38): the check that a session confirmed who it is lately, and the security log and its
 * mails. (The check of every token's session, createSessionCheck, is app.ts's: the token check of every module
 * is built on it.)
 */
export async function wireSessions(
  shared: ServerContext<{
    passwordHashCost: number;
    jwtExpiresIn: string;
    publicOrigin: string | undefined;
    port: number;
    now: () => number;
  }>,
  { mail }: { mail: MailModule },
) {
  const { app, config, db, guards, jobs, limiter } = shared;
  const sessions = createSessionsService({
    db,
    limiter,
    passwordHashCost: config.passwordHashCost,
    sessionLifetimeSeconds: sessionLifetimeOf(config.jwtExpiresIn),
  });
  const security = createAccountSecurity({
    db,
    jobs,
    mailer: mail.mailer,
    origin: config.publicOrigin ?? `http://localhost:${config.port}`,
    now: config.now,
  });
  await app.register(sessionsRoutes, { prefix: '/api', sessions, security, guards });
  return { sessions, security };
}

export type SessionsModule = Awaited<ReturnType<typeof wireSessions>>;
