import { ERRORS, LIMITS, TOASTS } from '@share-arts/contract';

export type AuthField = 'fullname' | 'email' | 'username' | 'password' | 'confirmPassword';
/** Each field's problem, shown beside it; `form` for one that is about no field (the network, a limit). */
export type AuthErrors = Partial<Record<AuthField | 'form', string>>;

/** Every problem of a signup form at once, in the spec's words where it has them. */
export function signupErrors(values: Record<AuthField, string>): AuthErrors {
  const errors: AuthErrors = {};
  for (const [field, value] of Object.entries(values) as [AuthField, string][]) {
    if (!value) errors[field] = TOASTS.fieldsMissing;
  }
  if (values.password && values.password.length < LIMITS.passwordMin) {
    errors.password = `Use at least ${LIMITS.passwordMin} characters.`;
  }
  if (values.password && values.confirmPassword && values.password !== values.confirmPassword) {
    errors.confirmPassword = TOASTS.passwordsDiffer;
  }
  return errors;
}

/** Every problem of a login form at once. */
export function loginErrors(values: { username: string; password: string }): AuthErrors {
  const errors: AuthErrors = {};
  if (!values.username) errors.username = TOASTS.fieldsMissing;
  if (!values.password) errors.password = TOASTS.fieldsMissing;
  return errors;
}

/**
 * A server refusal beside the field it is about: the spec's fixed texts by what they say, the others
 * ("email must be …", "password must …") by the field they start with; anything else is about the form.
 */
export function serverErrors(message: string, fields: readonly AuthField[]): AuthErrors {
  if (message === ERRORS.usernameTaken || message === ERRORS.usernameNotRegistered) return { username: message };
  if (message === ERRORS.invalidCredentials) return { password: message };
  const subject = message.replace(/^(body\.)?/, '').split(/[\s.:]/, 1)[0];
  const field = fields.find((name) => name === subject);
  return field ? { [field]: message } : { form: message };
}
