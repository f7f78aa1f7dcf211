import type { SecondFactorNeeded } from '@share-arts/contract';
import type { ServerContext } from '../../context.js';
import { port } from '../../lib/port.js';
import type { MailModule } from '../mail/index.js';
import { endSessions, sessionLifetimeOf, type SessionsModule } from '../sessions/index.js';
import type { UsersModule } from '../users/index.js';
import { accountEmailRoutes } from './account-email.routes.js';
import { createAccountEmailService } from './account-email.service.js';
import { authRoutes } from './auth.routes.js';
import { createAuthService } from './auth.service.js';

/**
 * The auth module: sign-up, log-in and the token check's route, and the mailed links of the account's
 * address (issue 24: its confirmation, a password reset). Two ports for the modules wired after it: the
 * second step of a two-factor sign-in, and making ADMIN_USERNAME's new account admin (moderation's roles).
 */
export async function wireAuth(
  shared: ServerContext<{
    jwtExpiresIn: string;
    jwtSecret: string;
    passwordHashCost: number;
    adminUsername?: string | undefined;
    publicOrigin: string | undefined;
    port: number;
    now: () => number;
  }>,
  { mail, sessions, users }: { mail: MailModule; sessions: SessionsModule; users: UsersModule },
) {
  const { app, config, db, guards, jobs, limiter, log, reads, tokenCheck, tokens } = shared;
  // Links start with PUBLIC_ORIGIN (else this port on localhost).
  // The mails leave from background jobs (issue 37).
  const accountEmail = createAccountEmailService({
    db,
    mailer: mail.mailer,
    jobs,
    linkSecret: config.jwtSecret,
    origin: config.publicOrigin ?? `http://localhost:${config.port}`,
    limiter,
    passwordHashCost: config.passwordHashCost,
    now: config.now,
    // A password reset ends every session of the account (issue 24).
    endSessions: async (userId) => void (await endSessions(db, userId)),
    security: sessions.security,
  });
  // A mail that cannot be queued fails no sign-up or profile edit: "Resend" is there.
  const notQueued = (what: string) => (error: unknown) => log.error({ err: error }, `mail: ${what} not queued`);

  const secondFactor = port<(userId: string) => Promise<SecondFactorNeeded | undefined>>('secondFactor');
  const makeAdmin = port<(userId: string) => Promise<void>>('makeAdmin');
  const auth = createAuthService({
    db,
    tokens,
    sessionLifetimeSeconds: sessionLifetimeOf(config.jwtExpiresIn),
    tokenCheck,
    passwordHashCost: config.passwordHashCost,
    peopleSearches: users.peopleSearches,
    limiter,
    adminUsername: config.adminUsername,
    makeAdmin: makeAdmin.call,
    secondFactor: secondFactor.call,
    signedUp: (userId) => {
      // A new account reads itself from the primary at first (a replica may not have it yet).
      reads.wrote(userId);
      return accountEmail.signedUp(userId).catch(notQueued('confirmation on sign-up'));
    },
  });
  await app.register(authRoutes, { prefix: '/api', auth, limiter: guards.limiter });
  await app.register(accountEmailRoutes, { prefix: '/api', accountEmail, security: sessions.security, guards });
  return { auth, secondFactor, makeAdmin };
}

export type AuthModule = Awaited<ReturnType<typeof wireAuth>>;
