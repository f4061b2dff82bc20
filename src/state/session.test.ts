import { describe, expect, it } from 'vitest';
import { resetSession, session, setConnected, setListenKey } from './session';

describe('session', () => {
  it('starts disconnected and resetSession clears listen key and connected flag (sign-out)', () => {
    expect(session).toEqual({ listenKey: null, connected: false });
    setListenKey('lk-123');
    setConnected(true);
    expect(session).toEqual({ listenKey: 'lk-123', connected: true });
    resetSession();
    expect(session).toEqual({ listenKey: null, connected: false });
  });
});
