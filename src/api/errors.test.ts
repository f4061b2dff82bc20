import { AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { describe, expect, it } from 'vitest';
import { placeOrderBodySchema } from './contracts/trading';
import { errorMessage, fieldErrors, httpStatus } from './errors';

const httpError = (status: number, data: unknown) => {
  const config = { headers: {} } as InternalAxiosRequestConfig;
  const response = { status, data, statusText: '', headers: {}, config } as AxiosResponse;
  return new AxiosError(`Request failed with status code ${status}`, 'ERR_BAD_REQUEST', config, null, response);
};

describe('errorMessage (SPEC §8 order)', () => {
  it("prefers the server's message", () => {
    expect(errorMessage(httpError(409, { message: 'Email already registered' }), 'fallback')).toBe('Email already registered');
  });
  it('then a thrown string, then the error message', () => {
    expect(errorMessage('Plain failure', 'fallback')).toBe('Plain failure');
    expect(errorMessage(httpError(502, '<html>Bad gateway</html>'), 'fallback')).toBe('Request failed with status code 502');
    expect(errorMessage(new Error('Network Error'), 'fallback')).toBe('Network Error');
  });
  it('else the fallback', () => {
    expect(errorMessage(new Error(''), 'Unable to fetch users')).toBe('Unable to fetch users');
    expect(errorMessage(undefined, 'Unable to fetch users')).toBe('Unable to fetch users');
    expect(errorMessage({ message: 42 }, 'Unable to fetch users')).toBe('Unable to fetch users');
  });
});

describe('fieldErrors and httpStatus', () => {
  it('read the validation fields and the status of API errors only', () => {
    const error = httpError(400, { message: 'Invalid email', fields: { email: 'Enter a valid email address' } });
    expect(fieldErrors(error)).toEqual({ email: 'Enter a valid email address' });
    expect(httpStatus(error)).toBe(400);
    expect(fieldErrors(new Error('x'))).toEqual({});
    expect(httpStatus(new Error('x'))).toBeNull();
  });
});

describe('a body the client contract refuses before sending', () => {
  it('each problem at its field, in words — never the raw issue list', () => {
    const r = placeOrderBodySchema.safeParse({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', qty: '0.01', price: '0' });
    expect(r.success).toBe(false);
    const err = r.error!;
    expect(fieldErrors(err)).toEqual({ price: 'Must be greater than 0' });
    expect(errorMessage(err, 'fallback')).toBe('price: Must be greater than 0');
    expect(errorMessage(err, 'fallback')).not.toContain('"code"');
  });
});
