import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { SECURITY_ERRORS } from '@share-arts/contract';
import { ApiError, errorMessage } from '../../../lib/api-client';

/**
 * Runs a call that may need "Confirm it's you" first (issue 38): the same call, retried once after the person
 * confirmed who they are, and refused with `ReauthCancelledError` if they backed out.
 */
export type Confirmed = <T>(call: () => Promise<T>) => Promise<T>;

/** What a call answers when the session has not signed in or confirmed who it is lately ("sudo mode"). */
export function isReauthRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.source === SECURITY_ERRORS.reauthRequired;
}

/** The error's message, in the language of the moment it is made (issue 43). */
export const REAUTH_CANCELLED = msg`Nothing was changed: you closed "Confirm it's you" before confirming.`;

/** The person closed "Confirm it's you": the call was not made again and nothing changed. */
export class ReauthCancelledError extends Error {
  constructor() {
    super(i18n._(REAUTH_CANCELLED));
    this.name = 'ReauthCancelledError';
  }
}

export const isReauthCancelled = (error: unknown): error is ReauthCancelledError =>
  error instanceof ReauthCancelledError;

/** The sentence to show for a failed call, or nothing when the person only cancelled (all stays as it was). */
export function problemOf(error: unknown): string | undefined {
  if (!error || isReauthCancelled(error)) return undefined;
  return errorMessage(error);
}

/**
 * Makes `call`; if the server asks who is there, waits for `confirm` (true once the person confirmed) and makes
 * it once more. Any other failure, and the second attempt's, reaches the caller as it is.
 */
export async function withReauth<T>(call: () => Promise<T>, confirm: () => Promise<boolean>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isReauthRequired(error)) throw error;
  }
  if (!(await confirm())) throw new ReauthCancelledError();
  return call();
}

/**
 * One "Confirm it's you" for every call waiting on it: calls refused at the same moment share the dialog, and
 * each goes on (or stops) with its one answer.
 */
export function createConfirmGate(onOpenChange: (open: boolean) => void) {
  let waiting: ((confirmed: boolean) => void)[] = [];
  return {
    ask(): Promise<boolean> {
      return new Promise((resolve) => {
        waiting.push(resolve);
        if (waiting.length === 1) onOpenChange(true);
      });
    },
    /** Answers every waiting call: true after a confirmation, false when the dialog was closed. */
    settle(confirmed: boolean): void {
      if (!waiting.length) return;
      const answered = waiting;
      waiting = [];
      onOpenChange(false);
      for (const resolve of answered) resolve(confirmed);
    },
  };
}
export type ConfirmGate = ReturnType<typeof createConfirmGate>;
