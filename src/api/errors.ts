import axios from 'axios';
import { ZodError } from 'zod';
import { errorResponseSchema } from './contracts/common';

/** A request the client's own contract refused before sending it: each problem at its field, in words. */
function zodFields(error: ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.') || 'form';
    out[field] ??= issue.message;
  }
  return out;
}

/** "Price: Must be above 0" — never the raw issue list. */
function zodMessage(error: ZodError): string {
  return Object.entries(zodFields(error))
    .map(([field, message]) => `${field === 'form' ? '' : `${field}: `}${message}`)
    .join('; ');
}

/** The `{ message, fields? }` body of an API error answer, when the error is one. */
export function apiErrorBody(error: unknown): { message: string; fields?: Record<string, string> } | null {
  if (!axios.isAxiosError(error) || !error.response) return null;
  const parsed = errorResponseSchema.safeParse(error.response.data);
  return parsed.success ? parsed.data : null;
}

/**
 * The text a failure toast shows (SPEC §8): the server's message, else the thrown string or the
 * error's own message, else the fallback.
 */
export function errorMessage(error: unknown, fallback: string): string {
  const body = apiErrorBody(error);
  if (body?.message) return body.message;
  if (error instanceof ZodError) return zodMessage(error);
  if (typeof error === 'string' && error.trim()) return error;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/** Per-field messages of a validation error (400 `fields`), for mapping onto form fields. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (error instanceof ZodError) return zodFields(error);
  return apiErrorBody(error)?.fields ?? {};
}

/** HTTP status of a failed API call, or null for network errors and non-HTTP failures. */
export function httpStatus(error: unknown): number | null {
  return axios.isAxiosError(error) ? (error.response?.status ?? null) : null;
}

/** True for HTTP errors answered by the server (vs. network failures or thrown values). */
export function isHttpError(error: unknown): boolean {
  return httpStatus(error) !== null;
}
