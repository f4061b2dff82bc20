/**
 * Issue 25 §1 (click → acknowledged row): a request leaves at once, on axios's own XHR transport. Axios would
 * otherwise read the XSRF cookie through the browser's async Cookie Store before every same-origin send (a
 * round trip to the browser process, 15–80 ms under load); the client sets that header itself, in step.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { createApiClient } from './client';

const realSend = XMLHttpRequest.prototype.send;
const realSetHeader = XMLHttpRequest.prototype.setRequestHeader;
afterEach(() => {
  XMLHttpRequest.prototype.send = realSend;
  XMLHttpRequest.prototype.setRequestHeader = realSetHeader;
  Reflect.deleteProperty(window, 'cookieStore');
});

it('sends a mutating request at once with its XSRF header, never waiting on the async cookie store', async () => {
  // A Cookie Store that never answers: a send that waits for it never happens.
  const store = { get: vi.fn(() => new Promise(() => undefined)) };
  Object.defineProperty(window, 'cookieStore', { value: store, configurable: true });
  const sent: Record<string, string>[] = [];
  let headers: Record<string, string> = {};
  XMLHttpRequest.prototype.setRequestHeader = function (name: string, value: string) {
    headers[name] = value;
  };
  XMLHttpRequest.prototype.send = function () {
    sent.push(headers);
    headers = {};
  };
  const client = createApiClient({ storage: null, channel: null, locks: null, readXsrfToken: () => 'xsrf-value' });
  void client.http.post('/v1/alerts', { a: 1 }).catch(() => undefined);
  await new Promise((r) => setTimeout(r, 20));
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ 'X-XSRF-TOKEN': 'xsrf-value' });
  expect(store.get).not.toHaveBeenCalled();
});
