import { useEffect, useRef, useState } from 'react';
import type { AuthErrors, AuthField } from './auth-errors';

/**
 * A login or signup form's problems, each beside its field (the fields draw them with aria-invalid and
 * aria-describedby). Showing a new set takes focus to the first field with a problem, so it is read out;
 * editing a field clears its own problem and the form's, so nothing outlives its cause.
 */
export function useAuthErrors() {
  const [errors, setErrors] = useState<AuthErrors>({});
  const [shown, setShown] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (shown > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [shown]);

  const show = (next: AuthErrors) => {
    setErrors(next);
    setShown((count) => count + 1);
  };

  const clear = (field: AuthField) =>
    setErrors((current) => {
      if (current[field] === undefined && current.form === undefined) return current;
      const rest = { ...current };
      delete rest[field];
      delete rest.form;
      return rest;
    });

  /** Props for the field called `name`: its error and the clearing of it. */
  const field = (name: AuthField) => ({ name, error: errors[name], onInput: () => clear(name) });

  const hasErrors = Object.keys(errors).length > 0;
  return { errors, hasErrors, show, reset: () => setErrors({}), field, formRef };
}
