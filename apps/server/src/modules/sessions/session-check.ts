import { LRUCache } from 'lru-cache';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import type { EventBus } from '../../events/bus.js';
import { isUuid } from '../../lib/ids.js';
import { selectSessionOwner, touchSession } from './sessions.sql.js';

/** How often a session's last_used_at is written at most: "last active" in the settings is this coarse. */
export const TOUCH_EVERY_MS = 5 * 60_000;

export interface SessionCheck {
  /** True while the session exists and is the user's: asked for every signed-in request (token-check.ts). */
  live(sessionId: string, userId: string): Promise<boolean>;
  /** Forgets sessions at once in this process (every process hears `session-ended`). */
  forget(userId: string, which?: { sessionId?: string; except?: string }): void;
}

/**
 * This process's session checks by database (one per app; tests build several): ending sessions forgets
 * them here at once, before the answer leaves, rather than when the event comes back.
 */
const checksByDb = new WeakMap<Db, Set<SessionCheck>>();

/** Forgets sessions in every check of this process on `db` (endSessions, after the deletion committed). */
export function forgetHere(db: Db, userId: string, which: { sessionId?: string; except?: string }): void {
  for (const check of checksByDb.get(db) ?? []) check.forget(userId, which);
}

/**
 * Whether a token's session is still live, asked on every signed-in request, as modules/users/accounts.ts
 * asks whether its account exists: a session seen live is remembered, so a signed-in request adds no
 * database round trip. Ending sessions (LOG OUT, the settings' End, a password change or reset: always
 * deleteSessions) sends `session-ended` with the deletion, and every process forgets them; this process
 * also forgets them at once (`forget`), before the answer leaves. A check in progress when any session
 * ends is not remembered; after the event listener was away, everything is forgotten. A remembered
 * session's last_used_at is written at most every TOUCH_EVERY_MS, off the request path (never awaited;
 * a failure is logged).
 */
export function createSessionCheck({
  db,
  bus,
  log,
  max = 100_000,
  now = Date.now,
}: {
  db: Db;
  bus: EventBus;
  log: FastifyBaseLogger;
  max?: number;
  now?: () => number;
}): SessionCheck {
  /** Live sessions: their user and when their last_used_at was last written (ms). */
  const known = new LRUCache<string, { userId: string; touchedAt: number }>({ max });
  /** Counts endings (and resumes): a check that saw it change while it ran does not store its answer. */
  let generation = 0;

  function forget(userId: string, which: { sessionId?: string; except?: string } = {}) {
    generation += 1;
    if (which.sessionId !== undefined) {
      known.delete(which.sessionId);
      return;
    }
    // Rare (a password change, "End all other sessions"): a walk over the remembered sessions.
    for (const [sessionId, entry] of known.entries()) {
      if (entry.userId === userId && sessionId !== which.except) known.delete(sessionId);
    }
  }

  bus.subscribe(
    (event) => {
      if (event.type === 'session-ended') {
        forget(event.userId, {
          ...(event.sessionId === undefined ? {} : { sessionId: event.sessionId }),
          ...(event.except === undefined ? {} : { except: event.except }),
        });
      }
      // The rows went with the account (ON DELETE CASCADE).
      if (event.type === 'account-deleted') forget(event.userId);
    },
    () => {
      known.clear();
      generation += 1;
    },
  );

  function touchIfDue(sessionId: string, entry: { touchedAt: number }) {
    const at = now();
    if (at - entry.touchedAt < TOUCH_EVERY_MS) return;
    entry.touchedAt = at;
    touchSession(db, sessionId).catch((error: unknown) => log.error({ err: error }, 'sessions: last use not written'));
  }

  const check: SessionCheck = {
    forget,
    async live(sessionId, userId) {
      if (!isUuid(sessionId)) return false;
      const seen = known.get(sessionId);
      if (seen) {
        if (seen.userId !== userId) return false;
        touchIfDue(sessionId, seen);
        return true;
      }
      const started = generation;
      const row = await selectSessionOwner(db, sessionId);
      if (!row || row.user_id !== userId) return false;
      const entry = { userId, touchedAt: row.last_used_ms };
      if (generation === started) known.set(sessionId, entry);
      touchIfDue(sessionId, entry);
      return true;
    },
  };
  const checks = checksByDb.get(db) ?? new Set<SessionCheck>();
  checks.add(check);
  checksByDb.set(db, checks);
  return check;
}
