import type { SecondFactorNeeded } from '@share-arts/contract';
import type { ServerContext } from '../../context.js';
import type { Port } from '../../lib/port.js';
import type { SessionsModule } from '../sessions/index.js';
import { createPasskeysService } from './passkeys.service.js';
import { twoFactorRoutes } from './two-factor.routes.js';
import { createTwoFactorService, type TwoFactorDeps } from './two-factor.service.js';

/**
 * The two-factor module (issue 24): an authenticator app's codes, recovery codes and passkeys. Its second
 * step and passkeys sign in through the auth module's one way, and a right password asks it for the
 * second step (the auth module's port). It also confirms who is there for the changes only a session that
 * did so lately may make (issue 38: a password, a code or a passkey; the sessions module keeps the time).
 */
export async function wireTwoFactor(
  shared: ServerContext<{ jwtSecret: string; now: () => number; publicOrigin: string | undefined }>,
  {
    auth,
    sessions,
  }: {
    auth: {
      auth: { completeSignIn: TwoFactorDeps['signIn'] };
      secondFactor: Port<(userId: string) => Promise<SecondFactorNeeded | undefined>>;
    };
    sessions: SessionsModule;
  },
) {
  const { app, config, db, guards, limiter } = shared;
  const signIn = auth.auth.completeSignIn;
  const twoFactor = createTwoFactorService({ db, jwtSecret: config.jwtSecret, limiter, now: config.now, signIn });
  auth.secondFactor.connect((userId) => twoFactor.ticketFor(userId));
  const passkeys = createPasskeysService({ db, now: config.now, twoFactor, signIn });
  await app.register(twoFactorRoutes, {
    prefix: '/api',
    twoFactor,
    passkeys,
    sessions: sessions.sessions,
    security: sessions.security,
    guards,
    publicOrigin: config.publicOrigin,
  });
  return { twoFactor };
}

export type TwoFactorModule = Awaited<ReturnType<typeof wireTwoFactor>>;
