import { i18n } from '@lingui/core';
import { ERRORS, TOASTS } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { loginErrors, serverErrors, signupErrors } from './auth-errors';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const filled = {
  fullname: 'Ada Painter',
  email: 'ada@example.com',
  username: 'ada',
  password: 'long-enough-secret',
  confirmPassword: 'long-enough-secret',
};

describe('signupErrors', () => {
  it('finds nothing wrong with a complete form', () => {
    expect(signupErrors(filled)).toEqual({});
  });

  it('names every problem at once, in the spec’s words', () => {
    expect(signupErrors({ ...filled, fullname: '', email: '', confirmPassword: 'something else' })).toEqual({
      fullname: TOASTS.fieldsMissing,
      email: TOASTS.fieldsMissing,
      confirmPassword: TOASTS.passwordsDiffer,
    });
  });

  it('says a short password is short', () => {
    expect(signupErrors({ ...filled, password: 'short', confirmPassword: 'short' })).toEqual({
      password: expect.stringContaining('at least') as string,
    });
  });
});

describe('loginErrors', () => {
  it('marks each empty field', () => {
    expect(loginErrors({ username: '', password: '' })).toEqual({
      username: TOASTS.fieldsMissing,
      password: TOASTS.fieldsMissing,
    });
    expect(loginErrors({ username: 'ada', password: 'x' })).toEqual({});
  });
});

describe('serverErrors', () => {
  const fields = ['fullname', 'email', 'username', 'password', 'confirmPassword'] as const;

  it('puts the spec’s messages beside the field they are about', () => {
    expect(serverErrors(ERRORS.usernameTaken, fields)).toEqual({ username: ERRORS.usernameTaken });
    expect(serverErrors(ERRORS.usernameNotRegistered, fields)).toEqual({ username: ERRORS.usernameNotRegistered });
    expect(serverErrors(ERRORS.invalidCredentials, fields)).toEqual({ password: ERRORS.invalidCredentials });
  });

  it('finds the field a validation message starts with', () => {
    const message = 'email must be a valid address, like ana@example.com.';
    expect(serverErrors(message, fields)).toEqual({ email: message });
  });

  it('keeps anything else for the form', () => {
    const message = 'Too many requests. Please try again in 30 s.';
    expect(serverErrors(message, fields)).toEqual({ form: message });
  });
});
