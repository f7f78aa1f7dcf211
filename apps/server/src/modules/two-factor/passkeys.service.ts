import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { COSEALG } from '@simplewebauthn/server/helpers';
import { TWO_FACTOR, TWO_FACTOR_ERRORS, type Passkey, type PasskeyCredential } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import type { SessionClient } from '../sessions/index.js';
import { badRequest, HttpError, notFound, unauthorized } from '../../lib/http-error.js';
import {
  deletePasskey,
  insertChallenge,
  insertPasskey,
  markPasskeyUsed,
  selectPasskeyByCredential,
  selectPasskeys,
  selectUsername,
  takeChallenge,
} from './two-factor.sql.js';
import { toPasskey, type TwoFactorDeps, type TwoFactorService } from './two-factor.service.js';

/**
 * The signature algorithms a new passkey may use. Left to the library, the list depends on the Node that
 * runs it: on Node 24 it offers ML-DSA-44 first, an algorithm Node's Web Crypto still marks experimental
 * (and warns about on the first registration), which passkeys kept for years should not rest on.
 */
const ALGORITHMS = [COSEALG.EdDSA, COSEALG.ES256, COSEALG.RS256];

const RP_NAME = 'Share Arts';

export interface PasskeysDeps {
  db: Db;
  now: () => number;
  twoFactor: TwoFactorService;
  signIn: TwoFactorDeps['signIn'];
}

/** The relying party is the site: its origin (PUBLIC_ORIGIN, else the request's plain Host) and host name. */
function relyingParty(origin: string | undefined) {
  if (!origin) throw badRequest('The server cannot tell its own address for passkeys: set PUBLIC_ORIGIN.');
  return { origin, rpID: new URL(origin).hostname };
}

/** The challenge the browser signed, read from its client data (verified again by the library). */
function challengeOf(credential: PasskeyCredential): string | undefined {
  const clientData = (credential.response as { clientDataJSON?: unknown }).clientDataJSON;
  if (typeof clientData !== 'string') return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(clientData, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' ? parsed.challenge : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Passkeys (WebAuthn, issue 24): registered by a signed-in account, used as the sign-in itself (a discoverable
 * credential: no username typed) or as the second step of a password sign-in. Challenges are single-use and
 * live TWO_FACTOR.challengeMinutes.
 */
export function createPasskeysService({ db, now, twoFactor, signIn }: PasskeysDeps) {
  const date = () => new Date(now());
  const expiresAt = () => new Date(now() + TWO_FACTOR.challengeMinutes * 60_000);

  /** The account's passkey that signed the challenge, with its counter moved on; 401 otherwise. */
  async function assertion(
    credential: PasskeyCredential,
    origin: string | undefined,
    userId: string | null,
    userVerified = userId === null,
  ) {
    const rp = relyingParty(origin);
    const challenge = challengeOf(credential);
    if (!challenge) throw badRequest(TWO_FACTOR_ERRORS.passkeyFailed);
    const taken = await takeChallenge(db, challenge, 'sign-in', date());
    if (!taken || taken.userId !== userId) throw unauthorized(TWO_FACTOR_ERRORS.challengeExpired);
    const stored = await selectPasskeyByCredential(db, credential.id);
    if (!stored || (userId !== null && stored.userId !== userId)) throw unauthorized(TWO_FACTOR_ERRORS.passkeyUnknown);
    const verified = await verifyAuthenticationResponse({
      response: credential as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: stored.credentialId,
        publicKey: Buffer.from(stored.publicKey, 'base64url'),
        counter: stored.counter,
        transports: stored.transports as AuthenticatorTransport[],
      },
      requireUserVerification: userVerified,
    }).catch(() => undefined);
    if (!verified?.verified) throw unauthorized(TWO_FACTOR_ERRORS.passkeyFailed);
    await markPasskeyUsed(db, stored.id, verified.authenticationInfo.newCounter);
    return stored.userId;
  }

  /**
   * Options for navigator.credentials.get, and their challenge kept: any discoverable passkey (`userId` null),
   * or the account's passkeys.
   */
  async function authenticationOptions(
    userId: string | null,
    origin: string | undefined,
    userVerification: 'required' | 'preferred',
  ) {
    const rp = relyingParty(origin);
    const keys = userId === null ? [] : await selectPasskeys(db, userId);
    const options = await generateAuthenticationOptions({
      rpID: rp.rpID,
      allowCredentials: keys.map((key) => ({
        id: key.credentialId,
        transports: key.transports as AuthenticatorTransport[],
      })),
      userVerification,
    });
    await insertChallenge(
      db,
      { challenge: options.challenge, userId, purpose: 'sign-in', expiresAt: expiresAt() },
      date(),
    );
    return options as unknown as Record<string, unknown>;
  }

  return {
    async registrationOptions(userId: string, origin: string | undefined) {
      const rp = relyingParty(origin);
      const username = (await selectUsername(db, userId)) ?? 'account';
      const existing = await selectPasskeys(db, userId);
      if (existing.length >= TWO_FACTOR.passkeysMax) throw badRequest(TWO_FACTOR_ERRORS.tooManyPasskeys);
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: rp.rpID,
        userName: username,
        userID: new TextEncoder().encode(userId),
        attestationType: 'none',
        excludeCredentials: existing.map((key) => ({
          id: key.credentialId,
          transports: key.transports as AuthenticatorTransport[],
        })),
        // Discoverable, so that it can be the whole sign-in.
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
        supportedAlgorithmIDs: ALGORITHMS,
      });
      await insertChallenge(
        db,
        { challenge: options.challenge, userId, purpose: 'register', expiresAt: expiresAt() },
        date(),
      );
      return options as unknown as Record<string, unknown>;
    },

    async register(
      userId: string,
      credential: PasskeyCredential,
      name: string | undefined,
      origin: string | undefined,
    ): Promise<Passkey> {
      const rp = relyingParty(origin);
      const challenge = challengeOf(credential);
      if (!challenge) throw badRequest(TWO_FACTOR_ERRORS.passkeyFailed);
      const taken = await takeChallenge(db, challenge, 'register', date());
      if (!taken || taken.userId !== userId) throw badRequest(TWO_FACTOR_ERRORS.challengeExpired);
      const verified = await verifyRegistrationResponse({
        response: credential as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        requireUserVerification: false,
        supportedAlgorithmIDs: ALGORITHMS,
      }).catch(() => undefined);
      if (!verified?.verified) throw badRequest(TWO_FACTOR_ERRORS.passkeyFailed);
      const { credential: made, credentialDeviceType } = verified.registrationInfo;
      if ((await selectPasskeys(db, userId)).length >= TWO_FACTOR.passkeysMax) {
        throw badRequest(TWO_FACTOR_ERRORS.tooManyPasskeys);
      }
      const row = await insertPasskey(db, {
        userId,
        credentialId: made.id,
        publicKey: Buffer.from(made.publicKey).toString('base64url'),
        counter: made.counter,
        transports: made.transports ?? [],
        name: name?.trim() || (credentialDeviceType === 'multiDevice' ? 'Synced passkey' : 'Passkey on this device'),
      });
      if (!row) throw new HttpError(409, 'This passkey is registered already.');
      return toPasskey(row);
    },

    /** Removes one of the account's passkeys: answers its name. */
    async remove(userId: string, id: string): Promise<string> {
      const name = /^[0-9a-f-]{36}$/i.test(id) ? await deletePasskey(db, userId, id) : undefined;
      if (name === undefined) throw notFound(TWO_FACTOR_ERRORS.passkeyNotFound);
      return name;
    },

    /** Options to confirm who you are with one of your passkeys (issue 38): the device's own check is asked. */
    confirmOptions: (userId: string, origin: string | undefined) => authenticationOptions(userId, origin, 'required'),

    /** Confirms who you are with one of your passkeys, verified by the device (a PIN, a fingerprint). */
    async confirm(userId: string, credential: PasskeyCredential, origin: string | undefined): Promise<void> {
      await assertion(credential, origin, userId, true);
    },

    /** Options to sign in: any discoverable passkey, or (with a ticket) the ticket's account's passkeys. */
    async signInOptions(ticket: string | undefined, origin: string | undefined) {
      const userId = ticket === undefined ? null : await twoFactor.ticketUser(ticket);
      return authenticationOptions(userId, origin, userId === null ? 'required' : 'preferred');
    },

    /** The sign-in itself: the passkey proves who, with the device's own check (user verification). */
    async signIn(credential: PasskeyCredential, origin: string | undefined, client: SessionClient) {
      const userId = await assertion(credential, origin, null);
      const username = await selectUsername(db, userId);
      if (!username) throw unauthorized(TWO_FACTOR_ERRORS.passkeyUnknown);
      return signIn(username, client);
    },

    /** The second step of a password sign-in, with a passkey instead of a code. */
    secondFactor(ticket: string, credential: PasskeyCredential, origin: string | undefined, client: SessionClient) {
      return twoFactor.finish(
        ticket,
        {
          proved: async (userId) => {
            await assertion(credential, origin, userId);
          },
        },
        client,
      );
    },
  };
}

export type PasskeysService = ReturnType<typeof createPasskeysService>;
