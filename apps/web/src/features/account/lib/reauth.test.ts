import { i18n } from '@lingui/core';
import { SECURITY_ERRORS } from '@share-arts/contract';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import {
  REAUTH_CANCELLED,
  ReauthCancelledError,
  createConfirmGate,
  isReauthRequired,
  problemOf,
  withReauth,
} from './reauth';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const reauthRequired = () => new ApiError(403, SECURITY_ERRORS.reauthRequired);

/** A call that fails with each of `failures` in turn, then answers 'done'. */
function callFailing(...failures: Error[]) {
  return vi.fn(async () => {
    const failure = failures.shift();
    if (failure) throw failure;
    return 'done';
  });
}

describe('isReauthRequired', () => {
  it('is the 403 with the exact sentence of "Confirm it\'s you"', () => {
    expect(isReauthRequired(reauthRequired())).toBe(true);
  });

  it.each([
    ['another 403', new ApiError(403, 'You may not do that.')],
    ['the sentence with another status', new ApiError(401, SECURITY_ERRORS.reauthRequired)],
    ['a plain error', new Error(SECURITY_ERRORS.reauthRequired)],
    ['nothing', undefined],
  ])('is not %s', (_label, error) => {
    expect(isReauthRequired(error)).toBe(false);
  });
});

describe('withReauth', () => {
  it('makes the call once, asking nothing, when the session may', async () => {
    const call = callFailing();
    const confirm = vi.fn(async () => true);
    await expect(withReauth(call, confirm)).resolves.toBe('done');
    expect(call).toHaveBeenCalledTimes(1);
    expect(confirm).not.toHaveBeenCalled();
  });

  it('asks who is there when the server wants it, then makes the call once more', async () => {
    const call = callFailing(reauthRequired());
    const confirm = vi.fn(async () => true);
    await expect(withReauth(call, confirm)).resolves.toBe('done');
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('stops, without calling again, when the person cancels', async () => {
    const call = callFailing(reauthRequired());
    const promise = withReauth(call, async () => false);
    await expect(promise).rejects.toBeInstanceOf(ReauthCancelledError);
    await expect(promise).rejects.toThrow(i18n._(REAUTH_CANCELLED));
    await expect(promise).rejects.toThrow('Nothing was changed: you closed "Confirm it\'s you" before confirming.');
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('retries only once: a second refusal reaches the caller as it is', async () => {
    const call = callFailing(reauthRequired(), reauthRequired());
    const confirm = vi.fn(async () => true);
    await expect(withReauth(call, confirm)).rejects.toThrow(SECURITY_ERRORS.reauthRequired);
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('passes any other failure on without asking', async () => {
    const wrong = new ApiError(400, SECURITY_ERRORS.sameEmail);
    const confirm = vi.fn(async () => true);
    await expect(withReauth(callFailing(wrong), confirm)).rejects.toBe(wrong);
    expect(confirm).not.toHaveBeenCalled();
  });
});

describe('createConfirmGate', () => {
  it('opens one dialog for the calls refused together, and answers them all', async () => {
    const onOpenChange = vi.fn();
    const gate = createConfirmGate(onOpenChange);
    const first = gate.ask();
    const second = gate.ask();
    expect(onOpenChange.mock.calls).toEqual([[true]]);
    gate.settle(true);
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
    expect(onOpenChange.mock.calls).toEqual([[true], [false]]);
  });

  it('answers false when the dialog is closed, and opens again for the next refusal', async () => {
    const onOpenChange = vi.fn();
    const gate = createConfirmGate(onOpenChange);
    const cancelled = gate.ask();
    gate.settle(false);
    await expect(cancelled).resolves.toBe(false);
    const next = gate.ask();
    gate.settle(true);
    await expect(next).resolves.toBe(true);
    expect(onOpenChange.mock.calls).toEqual([[true], [false], [true], [false]]);
  });

  it('does nothing when nobody waits (the card left the page with the dialog closed)', () => {
    const onOpenChange = vi.fn();
    createConfirmGate(onOpenChange).settle(false);
    expect(onOpenChange).not.toHaveBeenCalled();
  });
});

describe('problemOf', () => {
  it('shows nothing for a cancelled confirmation, and the message of anything else', () => {
    expect(problemOf(new ReauthCancelledError())).toBeUndefined();
    expect(problemOf(null)).toBeUndefined();
    expect(problemOf(new ApiError(401, SECURITY_ERRORS.wrongPassword))).toBe(SECURITY_ERRORS.wrongPassword);
  });
});
