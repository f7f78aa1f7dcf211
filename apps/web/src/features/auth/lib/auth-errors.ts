import { t } from '@lingui/core/macro';
import { ERRORS, LIMITS } from '@share-arts/contract';
import { toastText } from '../../../lib/spec-toasts';

export type AuthField = 'fullname' | 'email' | 'username' | 'password' | 'confirmPassword';
/** Each field's problem, shown beside it; `form` for one that is about no field (the network, a limit). */
export type AuthErrors = Partial<Record<AuthField | 'form', string>>;

/** Every problem of a signup form at once, in the spec's words where it has them. */
export function signupErrors(values: Record<AuthField, string>): AuthErrors {
  const errors: AuthErrors = {};
  for (const [field, value] of Object.entries(values) as [AuthField, string][]) {
    if (!value) errors[field] = toastText('fieldsMissing');
  }
  if (values.password && values.password.length < LIMITS.passwordMin) {
    const passwordMin = LIMITS.passwordMin;
    errors.password = t`Use at least ${passwordMin} characters.`;
  }
  if (values.password && values.confirmPassword && values.password !== values.confirmPassword) {
    errors.confirmPassword = toastText('passwordsDiffer');
  }
  return errors;
}

/** Every problem of a login form at once. */
export function loginErrors(values: { username: string; password: string }): AuthErrors {
  const errors: AuthErrors = {};
  if (!values.username) errors.username = toastText('fieldsMissing');
  if (!values.password) errors.password = toastText('fieldsMissing');
  return errors;
}

/**
 * A server refusal beside the field it is about: the spec's fixed texts by what they say, the others
 * ("email must be …", "password must …") by the field they start with; anything else is about the form.
 */
export function serverErrors(message: string, fields: readonly AuthField[], source = message): AuthErrors {
  // Decided by what the server wrote in English (the message shown may be translated, issue 43).
  if (source === ERRORS.usernameTaken || source === ERRORS.usernameNotRegistered) return { username: message };
  if (source === ERRORS.invalidCredentials) return { password: message };
  const subject = source.replace(/^(body\.)?/, '').split(/[\s.:]/, 1)[0];
  const field = fields.find((name) => name === subject);
  return field ? { [field]: message } : { form: message };
}
