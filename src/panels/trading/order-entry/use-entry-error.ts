import { get, useFormState } from 'react-hook-form';
import type { OrderEntryValues } from './order-entry-form';

/** The message at a field (its contract path, e.g. `entry.price`), from the last press or the server's refusal. */
export function useEntryError(path: string): string | undefined {
  const { errors } = useFormState<OrderEntryValues>();
  return (get(errors, path) as { message?: string } | undefined)?.message;
}
