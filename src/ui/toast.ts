import { notifications } from '@mantine/notifications';
import { errorMessage } from '../api/errors';

/** Toast timings and limits (SPEC §9). */
export const TOAST_LIMIT = 20;
export const TOAST_DEFAULT_MS = 4000;
export const TOAST_SUCCESS_MS = 2000;
export const TOAST_ERROR_MS = 5000;
/**
 * A dismissed toast leaves the page this long after dismissal. Mantine keeps a hidden notification
 * in the DOM for its `transitionDuration` (its exit animation), so that prop carries this value.
 */
export const TOAST_REMOVE_DELAY_MS = 1000;

export function toastInfo(message: string): string {
  return notifications.show({ message, autoClose: TOAST_DEFAULT_MS });
}

export function toastSuccess(message: string): string {
  return notifications.show({ message, color: 'teal', autoClose: TOAST_SUCCESS_MS });
}

/** Error toasts last 5 s and can be dismissed with their close button. */
export function toastError(message: string): string {
  return notifications.show({ message, color: 'red', autoClose: TOAST_ERROR_MS, withCloseButton: true });
}

/** Something the user must read and act on (a part of an order is still live): stays until closed. */
export function toastWarning(message: string): string {
  return notifications.show({ message, color: 'orange', autoClose: false, withCloseButton: true });
}

/** Stays until `dismissToast` (or `notifications.update` to a final state). */
export function toastLoading(message: string): string {
  return notifications.show({ message, loading: true, autoClose: false, withCloseButton: false });
}

export function dismissToast(id: string): void {
  notifications.hide(id);
}

/** A failure toast: the server's message, else the error's own text, else `fallback` (SPEC §8). */
export function toastFailure(error: unknown, fallback: string): string {
  return toastError(errorMessage(error, fallback));
}
