import { and, asc, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { passkeyChallenges, passkeys, recoveryCodes, signInTickets, twoFactor, users } from '../../db/schema.js';

export type PasskeyRow = typeof passkeys.$inferSelect;

export async function selectTwoFactor(db: Db, userId: string) {
  const [row] = await db.select().from(twoFactor).where(eq(twoFactor.userId, userId));
  return row;
}

export async function selectUsername(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
  return row?.username;
}

/** A new secret waiting for its first code; an authenticator already on is left as it is (undefined). */
export async function upsertPendingSecret(db: Db, userId: string, sealed: string) {
  const rows = await db
    .insert(twoFactor)
    .values({ userId, totpSecret: sealed })
    .onConflictDoUpdate({
      target: twoFactor.userId,
      set: { totpSecret: sealed, totpLastStep: null, createdAt: sql`now()` },
      setWhere: eq(twoFactor.totpEnabled, false),
    })
    .returning({ userId: twoFactor.userId });
  return rows[0];
}

/** Takes the step if it is later than the last one accepted: one statement, so two requests cannot both. */
export async function takeStep(db: Db, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(twoFactor)
    .set({ totpLastStep: step })
    .where(and(eq(twoFactor.userId, userId), or(isNull(twoFactor.totpLastStep), lt(twoFactor.totpLastStep, step))))
    .returning({ userId: twoFactor.userId });
  return rows.length === 1;
}

/** Marks an unused recovery code used; false when it is not one of the account's or was used. */
export async function takeRecoveryCode(db: Db, userId: string, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ userId: recoveryCodes.userId });
  return rows.length === 1;
}

/** Turns the authenticator on with a new set of recovery codes (the old set goes). */
export async function enableTotp(db: Db, userId: string, codeHashes: string[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(twoFactor).set({ totpEnabled: true }).where(eq(twoFactor.userId, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
  });
}

export async function disableTotp(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  });
}

export async function countUnusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

export async function insertTicket(db: Db, userId: string, ticketHash: string, expiresAt: Date, now: Date) {
  await db.delete(signInTickets).where(and(eq(signInTickets.userId, userId), lt(signInTickets.expiresAt, now)));
  await db.insert(signInTickets).values({ ticketHash, userId, expiresAt });
}

/** The account of a ticket still good at `now` (the ticket stays: a wrong code may be typed again). */
export async function selectTicketUser(db: Db, ticketHash: string, now: Date): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: signInTickets.userId })
    .from(signInTickets)
    .where(and(eq(signInTickets.ticketHash, ticketHash), gt(signInTickets.expiresAt, now)));
  return row?.userId;
}

/** Deletes the ticket; false when another request took it first. */
export async function takeTicket(db: Db, ticketHash: string): Promise<boolean> {
  const rows = await db
    .delete(signInTickets)
    .where(eq(signInTickets.ticketHash, ticketHash))
    .returning({ userId: signInTickets.userId });
  return rows.length === 1;
}

export async function insertChallenge(
  db: Db,
  values: { challenge: string; userId: string | null; purpose: 'register' | 'sign-in'; expiresAt: Date },
  now: Date,
) {
  await db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, now));
  await db.insert(passkeyChallenges).values(values);
}

/** Deletes the challenge and answers it when it was still good, for this purpose (and account). */
export async function takeChallenge(
  db: Db,
  challenge: string,
  purpose: 'register' | 'sign-in',
  now: Date,
): Promise<{ userId: string | null } | undefined> {
  const [row] = await db.delete(passkeyChallenges).where(eq(passkeyChallenges.challenge, challenge)).returning({
    userId: passkeyChallenges.userId,
    purpose: passkeyChallenges.purpose,
    expiresAt: passkeyChallenges.expiresAt,
  });
  if (!row || row.purpose !== purpose || row.expiresAt <= now) return undefined;
  return { userId: row.userId };
}

export async function selectPasskeys(db: Db, userId: string): Promise<PasskeyRow[]> {
  return db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

export async function selectPasskeyByCredential(db: Db, credentialId: string): Promise<PasskeyRow | undefined> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
  return row;
}

export async function insertPasskey(db: Db, values: typeof passkeys.$inferInsert): Promise<PasskeyRow | undefined> {
  const rows = await db.insert(passkeys).values(values).onConflictDoNothing().returning();
  return rows[0];
}

export async function markPasskeyUsed(db: Db, id: string, counter: number): Promise<void> {
  await db
    .update(passkeys)
    .set({ counter, lastUsedAt: sql`now()` })
    .where(eq(passkeys.id, id));
}

/** Removes one of the account's passkeys: answers its name, or undefined when it has none with this id. */
export async function deletePasskey(db: Db, userId: string, id: string): Promise<string | undefined> {
  const rows = await db
    .delete(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
    .returning({ name: passkeys.name });
  return rows[0]?.name;
}
