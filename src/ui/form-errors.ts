import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { fieldErrors } from '../api/errors';

/**
 * Puts the server's per-field messages (400 `fields`) under the matching form fields. Returns
 * whether any field matched; the failure toast is shown by the app's mutation handler either way.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): boolean {
  const server = fieldErrors(error);
  let matched = false;
  for (const field of fields) {
    const message = server[field] ?? server[`body.${field}`];
    if (message) {
      setError(field, { type: 'server', message });
      matched = true;
    }
  }
  return matched;
}
