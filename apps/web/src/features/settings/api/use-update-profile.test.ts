import { i18n } from '@lingui/core';
import { SECURITY_ERRORS, SECURITY_MESSAGES } from '@share-arts/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as api from '../../../lib/api-client';
import { ApiError, apiClient } from '../../../lib/api-client';
import { ReauthCancelledError } from '../../account/reauth';
import { EMAIL_NOT_CONFIRMED, ProfileUpdateError, updateProfile, type ProfileInput } from './use-update-profile';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

vi.mock('../../../lib/api-client', async (importOriginal) => {
  const actual = await importOriginal<typeof api>();
  return { ...actual, apiClient: { ...actual.apiClient, post: vi.fn() } };
});
// Only the hook refreshes their caches: their modules (cards, the composer) need not load here.
vi.mock('../../people', () => ({ setCachedProfile: vi.fn(), userKeys: {} }));
vi.mock('../../posts', () => ({ postKeys: {} }));

const post = vi.mocked(apiClient.post);
const input: ProfileInput = {
  firstName: 'Ada',
  lastName: 'Painter',
  email: 'ada@example.com',
  bio: 'Linocuts.',
  link: '',
};
const keep = { kind: 'keep' } as const;
const savedUser = { _id: 'u1', email: 'ada@example.com' };

/** What updateProfile caught: the ProfileUpdateError it threw. */
async function refusal(promise: Promise<unknown>): Promise<ProfileUpdateError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProfileUpdateError);
  return error as ProfileUpdateError;
}

beforeEach(() => {
  post.mockReset();
  post.mockResolvedValue({ user: savedUser });
});

describe('updateProfile and the email address (issue 38)', () => {
  it('saves with users/edit alone, without the address, when it is unchanged', async () => {
    const change = vi.fn();
    const result = await updateProfile(input, keep, { current: 'ada@example.com', change });
    expect(change).not.toHaveBeenCalled();
    expect(post).toHaveBeenCalledExactlyOnceWith('/api/users/edit', {
      userData: { firstName: 'Ada', lastName: 'Painter', bio: 'Linocuts.', link: '' },
    });
    expect(result).toEqual({ user: savedUser, emailChanged: undefined });
  });

  it('changes a new address first, then saves the rest', async () => {
    const order: string[] = [];
    const change = vi.fn(async (email: string) => {
      order.push(`email ${email}`);
      return { message: SECURITY_MESSAGES.emailChanged };
    });
    post.mockImplementation(async (path) => {
      order.push(path);
      return { user: savedUser };
    });
    const result = await updateProfile(input, keep, { current: 'old@example.com', change });
    expect(order).toEqual(['email ada@example.com', '/api/users/edit']);
    expect(post.mock.calls[0]?.[1]).toEqual({
      userData: { firstName: 'Ada', lastName: 'Painter', bio: 'Linocuts.', link: '' },
    });
    expect(result.emailChanged).toBe(SECURITY_MESSAGES.emailChanged);
  });

  it('saves nothing, and says why beside the email field, when "Confirm it\'s you" is cancelled', async () => {
    const change = vi.fn(async () => Promise.reject(new ReauthCancelledError()));
    const error = await refusal(updateProfile(input, keep, { current: 'old@example.com', change }));
    expect(error.field).toBe('email');
    expect(error.message).toBe(EMAIL_NOT_CONFIRMED);
    expect(post).not.toHaveBeenCalled();
  });

  it('puts a refused address (the same one, an invalid one) beside the email field, and saves nothing', async () => {
    const change = vi.fn(async () => Promise.reject(new ApiError(400, SECURITY_ERRORS.sameEmail)));
    const error = await refusal(updateProfile(input, keep, { current: 'ADA@example.com', change }));
    expect(error.field).toBe('email');
    expect(error.message).toBe(SECURITY_ERRORS.sameEmail);
    expect(post).not.toHaveBeenCalled();
  });

  it('keeps the sentence about the new address when the rest is refused afterwards', async () => {
    const change = vi.fn(async () => ({ message: SECURITY_MESSAGES.emailChanged }));
    post.mockRejectedValue(new ApiError(400, 'link must start with http:// or https://'));
    const error = await refusal(updateProfile(input, keep, { current: 'old@example.com', change }));
    expect(error.field).toBe('link');
    expect(error.emailChanged).toBe(SECURITY_MESSAGES.emailChanged);
  });
});
